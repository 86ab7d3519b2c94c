package mocknode

import "math/bits"

// Solana writes keys (32 bytes) and signatures (64 bytes) in base58. Converting bytes to
// base58 is a long division per digit, too slow for a node answering thousands of blocks a
// second, so the node writes the digits directly: an id is a first digit small enough that the
// number fits its byte length (a real decoder gets exactly 32 or 64 bytes), then the 11 base58
// digits of the id's first word (the invertible one, see ids.go), then digits of the words
// that continue it. Reading one back is the reverse, and writing it again to compare.

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// Lengths of the ids in digits, and the largest first digit (by value) that keeps the number
// below 2^256 or 2^512: 17×58^43 < 2^256 and 5×58^87 < 2^512. The first digit is at least 1,
// so no leading '1' (a zero byte) shortens the decoded value.
const (
	keyDigits     = 44
	keyFirstMax   = 16
	sigDigits     = 88
	sigFirstMax   = 4
	wordDigits    = 11 // 58^11 > 2^64: any uint64 in 11 digits
	digitsPerWord = 10 // 58^10 < 2^64: digits drawn from a continuing word
	maxIDDigits   = sigDigits
	base          = 58
)

// appendBase58ID writes the id of key with n digits (keyDigits or sigDigits), unquoted.
func appendBase58ID(dst []byte, key uint64, n int) []byte {
	var buf [maxIDDigits]byte
	return append(dst, base58ID(&buf, key, n)...)
}

// base58ID writes the id into buf and returns it.
func base58ID(buf *[maxIDDigits]byte, key uint64, n int) []byte {
	first := uint64(keyFirstMax)
	if n == sigDigits {
		first = sigFirstMax
	}
	w := splitmix(key)
	next := splitmix(w)
	buf[0] = base58Alphabet[1+next%first]
	x := w
	for i := wordDigits; i >= 1; i-- {
		buf[i] = base58Alphabet[x%base]
		x /= base
	}
	for i := wordDigits + 1; i < n; {
		next = splitmix(next)
		x := next
		for j := 0; j < digitsPerWord && i < n; j++ {
			buf[i] = base58Alphabet[x%base]
			x /= base
			i++
		}
	}
	return buf[:n]
}

// parseBase58ID reads an id of n digits the node wrote: its key, or false for anything else.
func parseBase58ID(b []byte, n int) (uint64, bool) {
	if len(b) != n {
		return 0, false
	}
	var w uint64
	for _, c := range b[1 : 1+wordDigits] {
		d := base58Value(c)
		if d < 0 {
			return 0, false
		}
		hi, lo := bits.Mul64(w, base)
		if hi != 0 || lo+uint64(d) < lo {
			return 0, false // more than 64 bits: not a word the node wrote
		}
		w = lo + uint64(d)
	}
	key := unsplitmix(w)
	var buf [maxIDDigits]byte
	return key, string(base58ID(&buf, key, n)) == string(b)
}

// base58Value is the value of base58 digit c, or -1.
func base58Value(c byte) int {
	switch {
	case c >= '1' && c <= '9':
		return int(c - '1')
	case c >= 'A' && c <= 'H':
		return int(c-'A') + 9
	case c >= 'J' && c <= 'N':
		return int(c-'J') + 17
	case c >= 'P' && c <= 'Z':
		return int(c-'P') + 22
	case c >= 'a' && c <= 'k':
		return int(c-'a') + 33
	case c >= 'm' && c <= 'z':
		return int(c-'m') + 44
	}
	return -1
}
