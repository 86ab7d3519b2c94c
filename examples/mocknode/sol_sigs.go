package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// getSignaturesForAddress over the fake ledger, newest first, without an index: a wallet's
// transactions (and its token account's) lie on arithmetic sequences of slots (see
// chain_solana.go), one per role and transaction index, so a few cursors walking down them
// find them in order; a program's are found by walking the slots down, as most transactions
// call one.

const (
	maxSigLimit    = 1000 // Solana's default and largest limit
	msgSigsConfig  = `Invalid params: the config must be an object {\"limit\": 1 to 1000, \"before\": signature, \"until\": signature, \"commitment\": …}`
	msgSigsBefore  = "Invalid params: before and until must be signatures of transactions this node has answered"
	msgSigStatuses = "Invalid params: params[0] must be a list of 1 to 256 base58 transaction signatures"
	maxSigStatuses = 256           // Solana's limit
	sigCursorCount = 2 * solMaxTxs // payer and recipient, per transaction index
)

// sigQuery is getSignaturesForAddress's range: transactions at positions (slot<<8 | index)
// from from up to (not including) upper, at most limit of them.
type sigQuery struct {
	from, upper uint64
	limit       int
}

// getSignaturesForAddress: params [address, config?].
func (n *Node) getSignaturesForAddress(dst []byte, r *req) ([]byte, int, errCode, string) {
	addr := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !isBase58Address(addr) {
		return dst, 1, errInvalidParams, msgBalanceParams
	}
	head := n.slot(r.now)
	first := n.firstSlot(head)
	q := sigQuery{from: first << 8, upper: (head + 1) << 8, limit: maxSigLimit}
	if code, msg := n.readSigQuery(&q, param(r.params, 1), r); code != errNone {
		return dst, 1, code, msg
	}
	dst = append(dst, '[')
	k, ok := parseSolKey(addr)
	found := 0
	switch {
	case !ok:
	case k.d == 0:
		dst, found = appendProgramSigs(dst, k, q)
	default:
		dst, found = appendWalletSigs(dst, k, q)
	}
	return append(dst, ']'), max(found, 1), errNone, ""
}

// readSigQuery reads the config: limit, before and until.
func (n *Node) readSigQuery(q *sigQuery, v *fastjson.Value, r *req) (errCode, string) {
	if v == nil {
		return errNone, ""
	}
	if v.Type() != fastjson.TypeObject {
		return errInvalidParams, msgSigsConfig
	}
	if lv := v.Get("limit"); lv != nil {
		l, ok := uintParam(lv)
		if !ok || l < 1 || l > maxSigLimit {
			return errInvalidParams, msgSigsConfig
		}
		q.limit = int(l)
	}
	for _, name := range [...]string{"before", "until"} {
		bv := v.Get(name)
		if bv == nil || bv.Type() == fastjson.TypeNull {
			continue
		}
		tx, ok := n.findSolTx(stringParam(bv), r)
		if !ok {
			return errInvalidParams, msgSigsBefore
		}
		if pos := tx.slot<<8 | tx.index; name == "before" {
			q.upper = pos // before: older than it
		} else {
			q.from = pos + 1 // until: newer than it
		}
	}
	return errNone, ""
}

// sigCursor walks one arithmetic sequence of slots down: the slots where transaction index
// i has the wallet in one role.
type sigCursor struct {
	slot  uint64
	index uint64
	done  bool
}

// appendWalletSigs writes the transactions of a wallet or token account, newest first.
func appendWalletSigs(dst []byte, k solKey, q sigQuery) ([]byte, int) {
	var cs [sigCursorCount]sigCursor
	top := q.upper >> 8 // no transaction at or above upper lies in a later slot
	for i := range uint64(solMaxTxs) {
		step := i * solStride % solWallets
		payer := (k.payload + solWallets - step) % solWallets          // slot s ≡ this: i is paid by k
		paid := (k.payload + 2*solWallets - 1 - i - step) % solWallets // slot s ≡ this: i pays k
		cs[2*i], cs[2*i+1] = startCursor(top, payer, i), startCursor(top, paid, i)
	}
	found := 0
	for found < q.limit {
		c := newestCursor(&cs)
		if c == nil {
			break
		}
		pos := c.slot<<8 | c.index
		if pos < q.from {
			break // the newest candidate is past the end, so is every other
		}
		if pos < q.upper && !skipped(c.slot) && c.index < solTxCount(c.slot) {
			if tx := solTxAt(c.slot, c.index); tx.involves(k) {
				dst = appendSigEntry(dst, tx, found)
				found++
			}
		}
		if c.slot < solWallets {
			c.done = true
		} else {
			c.slot -= solWallets
		}
	}
	return dst, found
}

// startCursor is the cursor at the newest slot ≤ top that is ≡ res (mod solWallets).
func startCursor(top, res, index uint64) sigCursor {
	if top < res {
		return sigCursor{done: true}
	}
	return sigCursor{slot: top - (top-res)%solWallets, index: index}
}

// newestCursor is the live cursor at the newest position, or nil.
func newestCursor(cs *[sigCursorCount]sigCursor) *sigCursor {
	var best *sigCursor
	for i := range cs {
		c := &cs[i]
		if !c.done && (best == nil || c.slot > best.slot || c.slot == best.slot && c.index > best.index) {
			best = c
		}
	}
	return best
}

// appendProgramSigs writes the transactions that call a program, newest first.
func appendProgramSigs(dst []byte, k solKey, q sigQuery) ([]byte, int) {
	found := 0
	for s := q.upper >> 8; found < q.limit; s-- {
		if !skipped(s) {
			for i := solTxCount(s); i > 0 && found < q.limit; i-- {
				pos := s<<8 | (i - 1)
				if pos < q.from || pos >= q.upper {
					continue
				}
				if tx := solTxAt(s, i-1); tx.involves(k) {
					dst = appendSigEntry(dst, tx, found)
					found++
				}
			}
		}
		if s<<8 <= q.from { // every older slot is before the range; also stops at slot 0
			break
		}
	}
	return dst, found
}

// appendSigEntry writes one signature entry, after a comma unless it is the first.
func appendSigEntry(dst []byte, tx solTx, found int) []byte {
	if found > 0 {
		dst = append(dst, ',')
	}
	dst = append(dst, `{"blockTime":`...)
	dst = strconv.AppendUint(dst, solBlockTime(tx.slot), 10)
	dst = append(dst, `,"confirmationStatus":"finalized","err":null,"memo":`...)
	if tx.kind == solMemo {
		dst = append(dst, `"[9] rpcstress"`...)
	} else {
		dst = append(dst, "null"...)
	}
	dst = append(dst, `,"signature":"`...)
	dst = appendBase58ID(dst, dSolSig.key(tx.slot<<8|tx.index), sigDigits)
	dst = append(dst, `","slot":`...)
	dst = strconv.AppendUint(dst, tx.slot, 10)
	return append(dst, '}')
}

// getSignatureStatuses: params [[signature, …], config?]; a status per signature, null for
// one the node does not keep (whatever searchTransactionHistory says: the node keeps its
// whole ledger or none of it).
func (n *Node) getSignatureStatuses(dst []byte, r *req) ([]byte, int, errCode, string) {
	list := param(r.params, 0)
	if c := paramCount(r.params); c < 1 || c > 2 || list == nil || list.Type() != fastjson.TypeArray {
		return dst, 1, errInvalidParams, msgSigStatuses
	}
	sigs := list.GetArray()
	if len(sigs) < 1 || len(sigs) > maxSigStatuses {
		return dst, 1, errInvalidParams, msgSigStatuses
	}
	for _, v := range sigs {
		if !isBase58Signature(stringParam(v)) {
			return dst, 1, errInvalidParams, msgSigStatuses
		}
	}
	dst = appendContext(dst, n.slot(r.now))
	dst = appendList(dst, sigs, func(dst []byte, v *fastjson.Value) []byte {
		tx, ok := n.findSolTx(stringParam(v), r)
		if !ok {
			return append(dst, "null"...)
		}
		dst = append(dst, `{"confirmationStatus":"finalized","confirmations":null,"err":null,"slot":`...)
		dst = strconv.AppendUint(dst, tx.slot, 10)
		return append(dst, `,"status":{"Ok":null}}`...)
	})
	return append(dst, '}'), len(sigs), errNone, ""
}
