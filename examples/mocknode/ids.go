package mocknode

import (
	"encoding/binary"
	"encoding/hex"
)

// The fake chains store nothing: every hash, address, signature and account key is computed
// from what it names (a block number, a transaction's place, an account's index), so memory
// stays flat however long the node runs. To answer a lookup by hash or address without a
// table, the naming is invertible: a value's first 64 bits are a bijective mix of its key
// (a domain and a number), and the rest continues the mix so that a made-up value is told
// apart from a real one by writing the real one again and comparing.

// domain says what an id names; it is the key's top byte, so the same number names different
// things in different domains (block 7's hash is not transaction 7's).
type domain uint64

const (
	dEthBlock       domain = iota + 1 // an EVM block's hash; payload: the block number
	dEthTx                            // an EVM transaction's hash; payload: block<<8 | index
	dEthTxBody                        // an EVM transaction's contents (not written)
	dEthTxCount                       // how many transactions an EVM block has (not written)
	dEthRoot                          // an EVM block's state root
	dEthTxRoot                        // an EVM block's transactions root
	dEthReceiptRoot                   // an EVM block's receipts root
	dEthFee                           // an EVM block's base fee (not written)
	dEthWallet                        // an EVM externally owned account; payload: its index
	dEthToken                         // an ERC-20 token contract; payload: its index
	dEthSig                           // an EVM transaction's signature values r and s
	dSolBlockhash                     // a Solana slot's blockhash; payload: the slot
	dSolSig                           // a Solana transaction's signature; payload: slot<<8 | index
	dSolWallet                        // a Solana wallet; payload: its index
	dSolTokenAcct                     // a Solana token account; payload: its wallet's index
	dSolSkip                          // which slot of a window of slots is skipped (not written)
	dSolTxBody                        // a Solana transaction's contents (not written)
	dSolData                          // account data and instruction data (not written as ids)
	dEthStorage                       // an ERC-20 contract's storage slot; payload: token<<32 | holder
)

// payloadBits is how much of a key is the number; block numbers and slots fit with room.
const payloadBits = 56

// key is the 64-bit key of payload in domain d.
func (d domain) key(payload uint64) uint64 {
	return uint64(d)<<payloadBits | payload&(1<<payloadBits-1)
}

// splitKey is the inverse of key.
func splitKey(k uint64) (domain, uint64) {
	return domain(k >> payloadBits), k & (1<<payloadBits - 1)
}

// Constants of SplitMix64, whose every step is a bijection of uint64.
const (
	golden = 0x9e3779b97f4a7c15
	mixC1  = 0xbf58476d1ce4e5b9
	mixC2  = 0x94d049bb133111eb
)

// splitmix is one step of SplitMix64: a cheap, well-mixed, invertible hash of a counter.
func splitmix(x uint64) uint64 {
	x += golden
	x = (x ^ (x >> 30)) * mixC1
	x = (x ^ (x >> 27)) * mixC2
	return x ^ (x >> 31)
}

// unsplitmix is the inverse of splitmix: unsplitmix(splitmix(x)) == x for every x.
func unsplitmix(y uint64) uint64 {
	y = unxorshift(y, 31)
	y *= modInverse(mixC2)
	y = unxorshift(y, 27)
	y *= modInverse(mixC1)
	y = unxorshift(y, 30)
	return y - golden
}

// unxorshift inverts y = x ^ (x >> s): each round recovers s more of the top bits.
func unxorshift(y uint64, s uint) uint64 {
	x := y
	for range (64 + s - 1) / s {
		x = y ^ (x >> s)
	}
	return x
}

// modInverse is the inverse of the odd number c modulo 2^64, by Newton's iteration: c is its
// own inverse to 3 bits, and every round doubles the correct bits (3, 6, …, 96 ≥ 64).
func modInverse(c uint64) uint64 {
	x := c
	for range 5 {
		x *= 2 - c*x
	}
	return x
}

// words fills w with the id of key: w[0] is the invertible mix of key, the rest continue it.
func words(key uint64, w []uint64) {
	x := splitmix(key)
	for i := range w {
		w[i] = x
		x = splitmix(x)
	}
}

const hexDigits = "0123456789abcdef"

// appendHexWords writes the words' 16 hex digits each, without 0x; nibbles cuts the last
// word short (an address is 40 digits: two words and a half). nibbles is even: ids are bytes.
func appendHexWords(dst []byte, w []uint64, nibbles int) []byte {
	var b [8]byte
	for _, x := range w {
		n := min(nibbles, 16)
		if n <= 0 {
			break
		}
		binary.BigEndian.PutUint64(b[:], x)
		dst = hex.AppendEncode(dst, b[:n/2])
		nibbles -= n
	}
	return dst
}

// appendHash32 writes the 32-byte hash of payload in domain d as a quoted 0x string.
func appendHash32(dst []byte, d domain, payload uint64) []byte {
	return appendQuotedKeyHex(dst, d, payload, 64)
}

// appendHashHex writes the hash's 64 hex digits alone, as geth's error messages print hashes.
func appendHashHex(dst []byte, d domain, payload uint64) []byte {
	return appendKeyHex(dst, d, payload, 64)
}

// appendQuotedKeyHex writes appendKeyHex's digits as a quoted 0x string, as JSON-RPC writes
// hashes and addresses.
func appendQuotedKeyHex(dst []byte, d domain, payload uint64, digits int) []byte {
	dst = append(dst, `"0x`...)
	return append(appendKeyHex(dst, d, payload, digits), '"')
}

// appendKeyHex writes the first digits (at most 64) hex digits of payload's key in domain d: 64
// for a hash, 40 for an address.
func appendKeyHex(dst []byte, d domain, payload uint64, digits int) []byte {
	var w [4]uint64
	n := (digits + 15) / 16
	words(d.key(payload), w[:n])
	return appendHexWords(dst, w[:n], digits)
}

// parseHash32 reads a 0x hash of 64 hex digits (any case) that the node wrote in domain d,
// and returns its payload; false for anything else, a well-formed hash of nothing included.
func parseHash32(b []byte, d domain) (uint64, bool) {
	if len(b) != 66 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return 0, false
	}
	var w [4]uint64
	for i := range w {
		x, ok := parseHexWord(b[2+16*i : 2+16*(i+1)])
		if !ok {
			return 0, false
		}
		w[i] = x
	}
	got, payload := splitKey(unsplitmix(w[0]))
	if got != d {
		return 0, false
	}
	var want [4]uint64
	words(d.key(payload), want[:])
	return payload, want == w
}

// parseHexWord reads exactly 16 hex digits.
func parseHexWord(b []byte) (uint64, bool) {
	var x uint64
	for _, c := range b {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		x = x<<4 | uint64(d)
	}
	return x, true
}

// appendEthAddress writes the address of payload in domain d, quoted, lower case (as nodes
// write addresses; the EIP-55 checksum is for people).
func appendEthAddress(dst []byte, d domain, payload uint64) []byte {
	return appendQuotedKeyHex(dst, d, payload, 40)
}

// appendEthAddressHex writes the address's 40 hex digits, without quotes or 0x.
func appendEthAddressHex(dst []byte, d domain, payload uint64) []byte {
	return appendKeyHex(dst, d, payload, 40)
}

// parseEthAddressHex reads 40 hex digits (any case) that the node wrote as an address: the
// domain and payload, or false.
func parseEthAddressHex(b []byte) (domain, uint64, bool) {
	if len(b) != 40 {
		return 0, 0, false
	}
	w0, ok0 := parseHexWord(b[:16])
	w1, ok1 := parseHexWord(b[16:32])
	w2, ok2 := parseHexWord(b[32:40])
	if !ok0 || !ok1 || !ok2 {
		return 0, 0, false
	}
	d, payload := splitKey(unsplitmix(w0))
	var want [3]uint64
	words(d.key(payload), want[:])
	return d, payload, want[0] == w0 && want[1] == w1 && want[2]>>32 == w2
}

// parseEthAddress reads a 0x address the node wrote.
func parseEthAddress(b []byte) (domain, uint64, bool) {
	if len(b) != 42 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return 0, 0, false
	}
	return parseEthAddressHex(b[2:])
}
