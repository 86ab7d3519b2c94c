package mocknode

import "strconv"

// getBlock and getTransaction over the fake ledger, written as a Solana node writes them with
// encoding json (account keys as base58 strings, instructions with programIdIndex).

// getBlock: params [slot, config?]; Solana's errors for a slot without a block.
func (n *Node) getBlock(dst []byte, r *req) ([]byte, int, errCode, string) {
	slot, ok := uintParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !ok {
		return dst, 1, errInvalidParams, msgSlotParam
	}
	cfg, ok := readTxConfig(param(r.params, 1))
	if !ok {
		return dst, 1, errInvalidParams, msgTxConfig
	}
	if code, msg := n.slotProblem(r, slot); code != errNone {
		return dst, 1, code, msg
	}
	count := solTxCount(slot)
	parent := blockAtOrBefore(slot - min(slot, 1))
	dst = append(dst, `{"blockHeight":`...)
	dst = strconv.AppendUint(dst, blockHeight(slot), 10)
	dst = append(dst, `,"blockTime":`...)
	dst = strconv.AppendUint(dst, solBlockTime(slot), 10)
	dst = append(dst, `,"blockhash":"`...)
	dst = appendBase58ID(dst, dSolBlockhash.key(slot), keyDigits)
	dst = append(dst, `","parentSlot":`...)
	dst = strconv.AppendUint(dst, parent, 10)
	dst = append(dst, `,"previousBlockhash":"`...)
	dst = appendBase58ID(dst, dSolBlockhash.key(parent), keyDigits)
	dst = append(dst, '"')
	if cfg.rewards {
		dst = append(dst, `,"rewards":[]`...)
	}
	switch cfg.details {
	case detailsFull:
		dst = append(dst, `,"transactions":`...)
		dst = appendCount(dst, count, func(dst []byte, i uint64) []byte {
			dst = append(dst, '{')
			dst = appendSolTxBody(dst, solTxAt(slot, i), cfg)
			return append(dst, '}')
		})
	case detailsSignatures:
		dst = append(dst, `,"signatures":`...)
		dst = appendCount(dst, count, func(dst []byte, i uint64) []byte {
			dst = append(dst, '"')
			dst = appendBase58ID(dst, dSolSig.key(slot<<8|i), sigDigits)
			return append(dst, '"')
		})
	}
	return append(dst, '}'), int(count), errNone, ""
}

// getTransaction: params [signature, config?]; null for a signature of no transaction the
// node keeps.
func (n *Node) getTransaction(dst []byte, r *req) ([]byte, int, errCode, string) {
	sig := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !isBase58Signature(sig) {
		return dst, 1, errInvalidParams, msgSigParam
	}
	cfg, ok := readTxConfig(param(r.params, 1))
	if !ok || cfg.details != detailsFull {
		return dst, 1, errInvalidParams, msgTxConfig
	}
	tx, ok := n.findSolTx(sig, r)
	if !ok {
		return append(dst, "null"...), 1, errNone, ""
	}
	dst = append(dst, `{"blockTime":`...)
	dst = strconv.AppendUint(dst, solBlockTime(tx.slot), 10)
	dst = append(dst, `,"slot":`...)
	dst = strconv.AppendUint(dst, tx.slot, 10)
	dst = append(dst, ',')
	dst = appendSolTxBody(dst, tx, cfg)
	return append(dst, '}'), 1, errNone, ""
}

// findSolTx is the transaction a signature names, if the node keeps its slot.
func (n *Node) findSolTx(sig []byte, r *req) (solTx, bool) {
	key, ok := parseBase58ID(sig, sigDigits)
	d, pos := splitKey(key)
	if !ok || d != dSolSig {
		return solTx{}, false
	}
	slot, i := pos>>8, pos&0xff
	head := n.slot(r.now)
	if slot > head || slot < n.firstSlot(head) || skipped(slot) || i >= solTxCount(slot) {
		return solTx{}, false
	}
	return solTxAt(slot, i), true
}

// appendSolTxBody writes a transaction's "meta", "transaction" and (when asked) "version"
// members, without braces: getBlock and getTransaction wrap them differently.
func appendSolTxBody(dst []byte, tx solTx, cfg txConfig) []byte {
	var buf [6]solKey
	keys, programs := tx.keys(&buf)
	dst = append(dst, `"meta":`...)
	dst = appendSolMeta(dst, tx, keys)
	dst = append(dst, `,"transaction":{"message":{"accountKeys":[`...)
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = appendSolKey(dst, k)
		dst = append(dst, '"')
	}
	dst = append(dst, `],"header":{"numReadonlySignedAccounts":0,"numReadonlyUnsignedAccounts":`...)
	dst = strconv.AppendInt(dst, int64(programs), 10)
	dst = append(dst, `,"numRequiredSignatures":1},"instructions":[`...)
	dst = appendInstructions(dst, tx, keys)
	dst = append(dst, `],"recentBlockhash":"`...)
	dst = appendBase58ID(dst, dSolBlockhash.key(blockAtOrBefore(tx.slot-min(tx.slot, 1))), keyDigits)
	dst = append(dst, `"},"signatures":["`...)
	dst = appendBase58ID(dst, dSolSig.key(tx.slot<<8|tx.index), sigDigits)
	dst = append(dst, `"]}`...)
	if cfg.version {
		dst = append(dst, `,"version":"legacy"`...)
	}
	return dst
}

// appendInstructions writes tx's instructions: the compute budget's first, then its kind's.
func appendInstructions(dst []byte, tx solTx, keys []solKey) []byte {
	last := len(keys) - 1 // the compute budget program, when there is one, ends the keys
	sep := ""
	if tx.budget {
		dst = appendInstruction(dst, last, "", tx.amount, 9) // SetComputeUnitPrice
		sep = ","
	}
	dst = append(dst, sep...)
	switch tx.kind {
	case solToken:
		return appendInstruction(dst, 3, "1,2,0", tx.amount, 12) // Transfer: source, destination, owner
	case solMemo:
		dst = appendInstruction(dst, 2, "0,1", tx.amount, 16)             // the transfer
		return appendInstruction(append(dst, ','), 3, "", ^tx.amount, 12) // the memo
	}
	return appendInstruction(dst, 2, "0,1", tx.amount, 16) // System transfer: from, to
}

// appendInstruction writes one instruction: its program's index in the keys, the indices of
// its accounts, and digits standing for its data.
func appendInstruction(dst []byte, program int, accounts string, seed uint64, digits int) []byte {
	dst = append(dst, `{"accounts":[`...)
	dst = append(dst, accounts...)
	dst = append(dst, `],"data":"`...)
	x := dSolData.key(seed)
	for i := range digits {
		if i%digitsPerWord == 0 {
			x = splitmix(x)
		}
		dst = append(dst, base58Alphabet[x%base])
		x /= base
	}
	dst = append(dst, `","programIdIndex":`...)
	dst = strconv.AppendInt(dst, int64(program), 10)
	return append(dst, `,"stackHeight":null}`...)
}

// appendSolMeta writes a transaction's meta: its fee, balances before and after, and logs.
func appendSolMeta(dst []byte, tx solTx, keys []solKey) []byte {
	fee := uint64(solFee)
	if tx.budget {
		fee += tx.amount % 10_000 // the priority fee
	}
	moved := tx.amount
	if tx.kind == solToken {
		moved = 0 // tokens move, lamports do not
	}
	dst = append(dst, `{"computeUnitsConsumed":`...)
	dst = strconv.AppendUint(dst, 150+uint64(tx.kind)*4500, 10)
	dst = append(dst, `,"err":null,"fee":`...)
	dst = strconv.AppendUint(dst, fee, 10)
	dst = append(dst, `,"innerInstructions":[],"loadedAddresses":{"readonly":[],"writable":[]},"logMessages":[`...)
	programs := 0
	for _, k := range keys {
		if k.d != 0 {
			continue
		}
		if programs > 0 {
			dst = append(dst, ',')
		}
		programs++
		dst = append(dst, `"Program `...)
		dst = append(dst, solProgramID(int(k.payload))...)
		dst = append(dst, ` invoke [1]","Program `...)
		dst = append(dst, solProgramID(int(k.payload))...)
		dst = append(dst, ` success"`...)
	}
	dst = append(dst, `],"postBalances":[`...)
	dst = appendBalances(dst, tx, keys, fee, moved, true)
	dst = append(dst, `],"postTokenBalances":[],"preBalances":[`...)
	dst = appendBalances(dst, tx, keys, fee, moved, false)
	return append(dst, `],"preTokenBalances":[],"rewards":[],"status":{"Ok":null}}`...)
}

// appendBalances writes the lamports of each key before or after tx: the payer pays the fee
// and what it sends, the recipient wallet gets it, programs hold 1.
func appendBalances(dst []byte, tx solTx, keys []solKey, fee, moved uint64, after bool) []byte {
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		bal := uint64(1)
		if k.d != 0 {
			bal = fee + moved + splitmix(k.d.key(k.payload)^tx.slot)%maxLamports
		}
		switch {
		case !after:
		case i == 0:
			bal -= fee + moved
		case k.d == dSolWallet:
			bal += moved
		}
		dst = strconv.AppendUint(dst, bal, 10)
	}
	return dst
}
