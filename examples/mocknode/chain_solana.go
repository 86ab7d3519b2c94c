package mocknode

// The fake Solana ledger: one slot in every window of solSkipWindow is skipped (no block, as
// about 5 % of mainnet's slots are), every other slot has a block of 1 to solMaxTxs
// transactions between a few wallets. Like the EVM chain it is a function of the slot number
// and stores nothing. A wallet's transactions are found without a table: transaction i of
// slot s is paid by wallet (s + i×solStride) mod solWallets and pays wallet payer+1+i, so the
// slots where a wallet pays or is paid form a few arithmetic sequences.
const (
	solWallets     = 1000
	solMaxTxs      = 8
	solSkipWindow  = 20
	solStride      = 7919 // a prime: spreads a wallet's transactions over the slots
	solGenesisTime = 1_584_368_940
	solFee         = 5000 // lamports per signature, as on mainnet
	solTokenSpace  = 165  // an SPL token account's size in bytes
	solValidBlocks = 150  // how many blocks a blockhash stays valid for
)

// Transaction kinds.
const (
	solTransfer = iota // a System Program transfer between two wallets
	solToken           // an SPL Token transfer between the wallets' token accounts
	solMemo            // a transfer with a memo
	solKinds
)

// Programs the transactions call, by index; their ids are the real ones.
const (
	progSystem = iota
	progToken
	progMemo
	progComputeBudget
	numPrograms
)

// solProgramID is program p's id.
func solProgramID(p int) string {
	switch p {
	case progSystem:
		return "11111111111111111111111111111111"
	case progToken:
		return "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
	case progMemo:
		return "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"
	}
	return "ComputeBudget111111111111111111111111111111"
}

// solProgramIndex is the program whose id is b, or -1.
func solProgramIndex(b []byte) int {
	for p := range numPrograms {
		if string(b) == solProgramID(p) {
			return p
		}
	}
	return -1
}

// skipped reports whether slot s has no block.
func skipped(s uint64) bool {
	return s%solSkipWindow == splitmix(dSolSkip.key(s/solSkipWindow))%solSkipWindow
}

// blockHeight is how many blocks come before slot s's.
func blockHeight(s uint64) uint64 {
	before := s / solSkipWindow // one skipped slot per whole window
	if splitmix(dSolSkip.key(s/solSkipWindow))%solSkipWindow < s%solSkipWindow {
		before++
	}
	return s - before
}

// blockAtOrBefore is the newest slot ≤ s with a block (slot 0 if none).
func blockAtOrBefore(s uint64) uint64 {
	for s > 0 && skipped(s) {
		s--
	}
	return s
}

// blockAtOrAfter is the oldest slot ≥ s with a block.
func blockAtOrAfter(s uint64) uint64 {
	for skipped(s) {
		s++
	}
	return s
}

// solTxCount is how many transactions slot s's block has.
func solTxCount(s uint64) uint64 {
	return 1 + splitmix(dSolTxBody.key(s<<8|0xff))%solMaxTxs
}

// solTx is one transaction of the ledger.
type solTx struct {
	slot, index      uint64
	payer, recipient uint64 // wallet indices
	kind             int
	budget           bool   // it sets a compute unit price first, as busy wallets do
	amount           uint64 // lamports, or token units
}

// solTxAt is transaction i of slot s (i < solTxCount(s)).
func solTxAt(s, i uint64) solTx {
	h := splitmix(dSolTxBody.key(s<<8 | i))
	payer := (s + i*solStride) % solWallets
	return solTx{slot: s, index: i, payer: payer, recipient: (payer + 1 + i) % solWallets,
		kind: int(h % solKinds), budget: (h>>8)%2 == 0, amount: (h >> 16) % maxLamports}
}

// solKey is an account key of a transaction: a wallet, a token account or a program.
type solKey struct {
	d       domain // dSolWallet, dSolTokenAcct, or 0 for a program
	payload uint64 // the wallet's index, or the program's
}

// keys lists tx's account keys in Solana's order: the signer, the other writable accounts,
// then the programs (read-only); programs says how many programs end the list.
func (tx solTx) keys(out *[6]solKey) (keys []solKey, programs int) {
	ks := out[:0]
	switch tx.kind {
	case solToken:
		ks = append(ks, solKey{dSolWallet, tx.payer}, solKey{dSolTokenAcct, tx.payer},
			solKey{dSolTokenAcct, tx.recipient}, solKey{0, progToken})
	case solMemo:
		ks = append(ks, solKey{dSolWallet, tx.payer}, solKey{dSolWallet, tx.recipient},
			solKey{0, progSystem}, solKey{0, progMemo})
	default:
		ks = append(ks, solKey{dSolWallet, tx.payer}, solKey{dSolWallet, tx.recipient}, solKey{0, progSystem})
	}
	if tx.budget {
		ks = append(ks, solKey{0, progComputeBudget})
	}
	for _, k := range ks {
		if k.d == 0 {
			programs++
		}
	}
	return ks, programs
}

// involves reports whether k is one of tx's account keys.
func (tx solTx) involves(k solKey) bool {
	var buf [6]solKey
	ks, _ := tx.keys(&buf)
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// appendSolKey writes a key, unquoted.
func appendSolKey(dst []byte, k solKey) []byte {
	if k.d == 0 {
		return append(dst, solProgramID(int(k.payload))...)
	}
	return appendBase58ID(dst, k.d.key(k.payload), keyDigits)
}

// parseSolKey reads an account key the ledger knows: a program, a wallet or a token account.
func parseSolKey(b []byte) (solKey, bool) {
	if p := solProgramIndex(b); p >= 0 {
		return solKey{0, uint64(p)}, true
	}
	key, ok := parseBase58ID(b, keyDigits)
	d, payload := splitKey(key)
	if !ok || (d != dSolWallet && d != dSolTokenAcct) || payload >= solWallets {
		return solKey{}, false
	}
	return solKey{d, payload}, true
}

// solBlockTime is slot s's time in Unix seconds.
func solBlockTime(s uint64) uint64 {
	return solGenesisTime + s*uint64(solanaSlotTime.Milliseconds())/1000
}

// genesisPayload is the blockhash payload of the genesis hash, a slot that never comes.
const genesisPayload = 1<<payloadBits - 1
