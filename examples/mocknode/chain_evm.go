package mocknode

import "time"

// The fake EVM chain: every block 0…head exists, and its contents are a function of its
// number. A block has 0 to ethMaxTxs transactions; a third of them call one of a few ERC-20
// token contracts (transfer(recipient, amount), which emits a Transfer log), the others send
// ether between wallets. Nothing is stored, so the chain costs no memory however long it runs.
const (
	ethChainID    = 1337 // geth --dev's id: this is a development chain, not mainnet
	ethWallets    = 10_000
	ethTokens     = 4
	ethMaxTxs     = 8
	ethTokenEvery = 3 // one transaction in three calls a token
	ethGasLimit   = 30_000_000
	gasTransfer   = 21_000  // an ether transfer's gas, as on mainnet
	gasToken      = 51_000  // an ERC-20 transfer's gas used, typical of mainnet tokens
	gasTokenLimit = 100_000 // the gas limit a wallet sets for it
	gwei          = 1_000_000_000
	maxWeiSent    = 5_000_000_000_000_000_000  // 5 ether
	maxTokensSent = 10_000_000_000_000_000_000 // 10 tokens of 18 decimals
)

// ERC-20's wire constants, as every token and client writes them.
const (
	// transferTopic is keccak256("Transfer(address,address,uint256)"), a Transfer log's first topic.
	transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
	// Selectors: the first 4 bytes of keccak256 of the function's signature.
	selTransfer    = "a9059cbb" // transfer(address,uint256)
	selBalanceOf   = "70a08231" // balanceOf(address)
	selDecimals    = "313ce567" // decimals()
	selTotalSupply = "18160ddd" // totalSupply()
)

// ethTx is one transaction of the fake chain, as a function of its block and index.
type ethTx struct {
	block, index uint64
	from, to     uint64 // wallet indices: the sender, and the recipient of ether or tokens
	token        int    // the token contract called, or -1 for an ether transfer
	amount       uint64 // wei sent, or token units transferred
	nonce        uint64
	tip          uint64 // the priority fee per gas, in wei
}

// ethTxCount is how many transactions block n has.
func ethTxCount(n uint64) uint64 {
	return splitmix(dEthTxCount.key(n)) % (ethMaxTxs + 1)
}

// ethTxAt is transaction i of block n (i < ethTxCount(n)).
func ethTxAt(n, i uint64) ethTx {
	h := splitmix(dEthTxBody.key(n<<8 | i))
	g := splitmix(h)
	tx := ethTx{block: n, index: i, from: h % ethWallets, to: (h >> 16) % ethWallets, token: -1,
		nonce: (h >> 32) % 4096, tip: gwei/10 + g%(2*gwei)}
	if (h>>48)%ethTokenEvery == 0 {
		tx.token = int((h >> 52) % ethTokens)
		tx.amount = g % maxTokensSent
	} else {
		tx.amount = g % maxWeiSent
	}
	return tx
}

// gasUsed is what tx burns.
func (tx ethTx) gasUsed() uint64 {
	if tx.token >= 0 {
		return gasToken
	}
	return gasTransfer
}

// ethBaseFee is block n's base fee per gas: 10 to 50 gwei.
func ethBaseFee(n uint64) uint64 {
	return 10*gwei + splitmix(dEthFee.key(n))%(40*gwei)
}

// ethBlockGas is the gas block n used and how many of its transactions emit a log.
func ethBlockGas(n uint64) (gas, logs uint64) {
	for i := range ethTxCount(n) {
		tx := ethTxAt(n, i)
		gas += tx.gasUsed()
		if tx.token >= 0 {
			logs++
		}
	}
	return gas, logs
}

// ethTimestamp is block n's time in Unix seconds: genesis + 12 s per block.
func ethTimestamp(n uint64) uint64 {
	return ethGenesisTime + n*uint64(ethBlockTime.Seconds())
}

// ethTime is block num's timestamp on this node: ethTimestamp's, or with Config.WallClock the
// Unix second in which the node made it (0 for a block that would predate 1970).
func (n *Node) ethTime(num uint64) uint64 {
	if !n.cfg.WallClock {
		return ethTimestamp(num)
	}
	per, at := int64(n.cfg.BlockTime), n.epoch.UnixNano()
	d := int64(num) - ethFirstBlock // blocks after the first (num is at most the head)
	if d < 0 && -d > at/per {
		return 0
	}
	return uint64((at + d*per) / int64(time.Second))
}

// tokenBalance is holder's balance of token: a made-up but stable number of units below
// 2^64 (a balanceOf answer is 32 bytes; the top 24 are zero).
func tokenBalance(token, holder uint64) uint64 {
	return splitmix(dEthToken.key(token<<32|holder&(1<<32-1))) % maxTokensSent
}

// ethAddrHash is a hash of an address that ignores the case of its hex letters, so that
// checksummed and plain spellings agree; balances and nonces of any address derive from it.
func ethAddrHash(addr []byte) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for _, c := range addr {
		if c >= 'A' && c <= 'F' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// appendHex64 writes x as 64 hex digits (a 32-byte word of ABI data or a topic), without 0x.
func appendHex64(dst []byte, x uint64) []byte {
	dst = append(dst, zeroHex64[:48]...)
	for shift := 60; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[(x>>uint(shift))&0xf])
	}
	return dst
}

// appendAddressWord writes an address as a 32-byte word (24 zeros, then its 40 digits), as
// ABI data and log topics carry addresses.
func appendAddressWord(dst []byte, d domain, payload uint64) []byte {
	dst = append(dst, zeroHex64[:24]...)
	return appendEthAddressHex(dst, d, payload)
}

// appendTxTo writes the address a transaction is sent to: the token it calls, or a wallet.
func appendTxTo(dst []byte, tx ethTx) []byte {
	if tx.token >= 0 {
		return appendEthAddress(dst, dEthToken, uint64(tx.token))
	}
	return appendEthAddress(dst, dEthWallet, tx.to)
}

// appendTxInput writes a transaction's calldata: transfer(to, amount) for a token call.
func appendTxInput(dst []byte, tx ethTx) []byte {
	if tx.token < 0 {
		return append(dst, `"0x"`...)
	}
	dst = append(dst, `"0x`+selTransfer...)
	dst = appendAddressWord(dst, dEthWallet, tx.to)
	dst = appendHex64(dst, tx.amount)
	return append(dst, '"')
}
