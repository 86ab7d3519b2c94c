package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// Accounts of the fake ledger: every valid address is an account (a wallet owned by the
// System Program, with the balance getBalance answers), the token accounts hold 165 bytes
// owned by the Token Program, and the programs are executable. getProgramAccounts lists the
// token accounts or the wallets: solWallets accounts in one answer, the heavy call of a mix.

const (
	msgAccountConfig  = `Invalid params: the config must be an object {\"encoding\": \"base64\", \"commitment\": …}; the mock node writes account data as base64 only`
	msgProgramParam   = "Invalid params: params[0] must be a base58 program id of 32 to 44 characters"
	msgProgramConfig  = `Invalid params: the config must be an object {\"encoding\": \"base64\", \"filters\": [{\"dataSize\": N}], \"withContext\": true or false}; the mock node filters by dataSize only, up to 4 filters`
	maxProgramFilters = 4        // Solana's limit
	maxAccountSpace   = 10 << 20 // Solana's largest account: no dataSize beyond it matches
	rentEpochMax      = "18446744073709551615"
	base64Alphabet    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)

// getAccountInfo: params [address, config?].
func (n *Node) getAccountInfo(dst []byte, r *req) ([]byte, int, errCode, string) {
	addr := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !isBase58Address(addr) {
		return dst, 1, errInvalidParams, msgBalanceParams
	}
	if !base64Config(param(r.params, 1)) {
		return dst, 1, errInvalidParams, msgAccountConfig
	}
	k, known := parseSolKey(addr)
	if !known {
		k = solKey{d: dSolWallet} // an address the ledger never used: an empty wallet's shape
	}
	dst = appendContext(dst, n.slot(r.now))
	return append(appendAccount(dst, addr, k), '}'), 1, errNone, ""
}

// base64Config checks an account config asks for base64 data (or for nothing in particular).
func base64Config(v *fastjson.Value) bool {
	if v == nil {
		return true
	}
	if v.Type() != fastjson.TypeObject {
		return false
	}
	e := v.Get("encoding")
	return e == nil || string(stringParam(e)) == "base64"
}

// appendAccount writes the account at addr, of kind k.
func appendAccount(dst, addr []byte, k solKey) []byte {
	dst = append(dst, `{"data":["`...)
	space := 0
	owner := solProgramID(progSystem)
	switch {
	case k.d == dSolTokenAcct:
		space, owner = solTokenSpace, solProgramID(progToken)
		x := dSolData.key(k.payload)
		for i := 0; i < solTokenSpace*4/3; i++ { // 165 bytes are 220 base64 digits, no padding
			if i%10 == 0 {
				x = splitmix(x)
			}
			dst = append(dst, base64Alphabet[(x>>(6*(i%10)))&63])
		}
	case k.d == 0:
		owner = "NativeLoader1111111111111111111111111111111"
	}
	dst = append(dst, `","base64"],"executable":`...)
	dst = strconv.AppendBool(dst, k.d == 0)
	dst = append(dst, `,"lamports":`...)
	dst = strconv.AppendUint(dst, lamports(addr), 10)
	dst = append(dst, `,"owner":"`...)
	dst = append(dst, owner...)
	dst = append(dst, `","rentEpoch":`+rentEpochMax+`,"space":`...)
	dst = strconv.AppendInt(dst, int64(space), 10)
	return append(dst, '}')
}

// getProgramAccounts: params [program, config?]; the Token Program's accounts are the token
// accounts, the System Program's the wallets, any other program has none here.
func (n *Node) getProgramAccounts(dst []byte, r *req) ([]byte, int, errCode, string) {
	prog := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !isBase58Address(prog) {
		return dst, 1, errInvalidParams, msgProgramParam
	}
	cfg := param(r.params, 1)
	size, sized, withContext, ok := programConfig(cfg)
	if !ok {
		return dst, 1, errInvalidParams, msgProgramConfig
	}
	if withContext {
		dst = appendContext(dst, n.slot(r.now))
	}
	dst = append(dst, '[')
	d, space := domain(0), 0
	switch solProgramIndex(prog) {
	case progToken:
		d, space = dSolTokenAcct, solTokenSpace
	case progSystem:
		d = dSolWallet
	}
	found := 0
	if d != 0 && (!sized || size == space) {
		var buf [maxIDDigits]byte
		for i := range uint64(solWallets) {
			if i > 0 {
				dst = append(dst, ',')
			}
			key := base58ID(&buf, d.key(i), keyDigits)
			dst = append(dst, `{"account":`...)
			dst = appendAccount(dst, key, solKey{d, i})
			dst = append(dst, `,"pubkey":"`...)
			dst = append(dst, key...)
			dst = append(dst, `"}`...)
		}
		found = solWallets
	}
	dst = append(dst, ']')
	if withContext {
		dst = append(dst, '}')
	}
	return dst, max(found, 1), errNone, ""
}

// programConfig reads getProgramAccounts's config: base64 data, dataSize filters (all must
// agree to match anything), withContext.
func programConfig(v *fastjson.Value) (size int, sized, withContext, ok bool) {
	if v == nil {
		return 0, false, false, true
	}
	if !base64Config(v) {
		return 0, false, false, false
	}
	if withContext, ok = boolParam(v.Get("withContext")); !ok {
		return 0, false, false, false
	}
	fv := v.Get("filters")
	if fv == nil {
		return 0, false, withContext, true
	}
	if fv.Type() != fastjson.TypeArray || len(fv.GetArray()) > maxProgramFilters {
		return 0, false, false, false
	}
	for _, f := range fv.GetArray() {
		o, err := f.Object()
		u, isUint := uintParam(f.Get("dataSize"))
		if err != nil || o.Len() != 1 || !isUint || u > maxAccountSpace {
			return 0, false, false, false
		}
		if sized && int(u) != size {
			size = -1 // two sizes: no account has both
		} else if !sized {
			size, sized = int(u), true
		}
	}
	return size, sized, withContext, true
}
