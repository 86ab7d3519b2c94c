package mocknode

import "github.com/valyala/fastjson"

// Account lookups in bulk: several accounts in one call, and the token accounts of a wallet.
// Every wallet of the ledger holds one token account (the one its token transfers move).

const (
	// maxMultipleAccounts is Solana's limit of keys in one getMultipleAccounts.
	maxMultipleAccounts = 100

	msgMultipleParams = "Invalid params: params[0] must be an array of 1 to 100 base58 account addresses of 32 to 44 characters"
	msgOwnerParam     = "Invalid params: params[0] must be a base58 owner address of 32 to 44 characters"
	msgTokenFilter    = `Invalid params: params[1] must be {\"mint\": base58 address} or {\"programId\": base58 address}`
)

// getMultipleAccounts: params [[address…], config?]; each account as getAccountInfo writes
// it. Each account is one item.
func (n *Node) getMultipleAccounts(dst []byte, r *req) ([]byte, int, errCode, string) {
	keys := param(r.params, 0)
	if c := paramCount(r.params); c < 1 || c > 2 || keys.Type() != fastjson.TypeArray {
		return dst, 1, errInvalidParams, msgMultipleParams
	}
	list := keys.GetArray()
	if len(list) == 0 || len(list) > maxMultipleAccounts {
		return dst, 1, errInvalidParams, msgMultipleParams
	}
	for _, k := range list {
		if !isBase58Address(stringParam(k)) {
			return dst, 1, errInvalidParams, msgMultipleParams
		}
	}
	if !base64Config(param(r.params, 1)) {
		return dst, 1, errInvalidParams, msgAccountConfig
	}
	dst = appendContext(dst, n.slot(r.now))
	dst = appendList(dst, list, func(dst []byte, k *fastjson.Value) []byte {
		addr := stringParam(k)
		sk, known := parseSolKey(addr)
		if !known {
			sk = solKey{d: dSolWallet} // as getAccountInfo: an unused address is an empty wallet
		}
		return appendAccount(dst, addr, sk)
	})
	return append(dst, '}'), len(list), errNone, ""
}

// getTokenAccountsByOwner: params [owner, {mint} or {programId}, config?]; a wallet's token
// account under the Token Program. The ledger names no mints, so a mint filter matches none,
// as it would for a mint the wallet never held.
func (n *Node) getTokenAccountsByOwner(dst []byte, r *req) ([]byte, int, errCode, string) {
	owner := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 2 || c > 3 || !isBase58Address(owner) {
		return dst, 1, errInvalidParams, msgOwnerParam
	}
	byProgram, ok := tokenFilter(param(r.params, 1))
	if !ok {
		return dst, 1, errInvalidParams, msgTokenFilter
	}
	if !base64Config(param(r.params, 2)) {
		return dst, 1, errInvalidParams, msgAccountConfig
	}
	dst = appendContext(dst, n.slot(r.now))
	dst = append(dst, '[')
	if w, known := parseSolKey(owner); known && w.d == dSolWallet && byProgram {
		var buf [maxIDDigits]byte
		key := base58ID(&buf, dSolTokenAcct.key(w.payload), keyDigits)
		dst = append(dst, `{"account":`...)
		dst = appendAccount(dst, key, solKey{dSolTokenAcct, w.payload})
		dst = append(dst, `,"pubkey":"`...)
		dst = append(dst, key...)
		dst = append(dst, `"}`...)
	}
	return append(dst, "]}"...), 1, errNone, ""
}

// tokenFilter reads getTokenAccountsByOwner's filter: exactly one of mint and programId, a
// base58 address; byProgram is whether it selects the Token Program.
func tokenFilter(v *fastjson.Value) (byProgram, ok bool) {
	if v == nil {
		return false, false
	}
	if o, err := v.Object(); err != nil || o.Len() != 1 {
		return false, false
	}
	if p := stringParam(v.Get("programId")); isBase58Address(p) {
		return solProgramIndex(p) == progToken, true
	}
	return false, isBase58Address(stringParam(v.Get("mint")))
}
