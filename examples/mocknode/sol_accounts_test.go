package mocknode

import (
	"encoding/base64"
	"encoding/json"
	"testing"
)

type testAccount struct {
	Data       []string
	Executable bool
	Lamports   uint64
	Owner      string
	Space      int
}

// TestAccountInfo: token accounts, wallets, programs and strangers, with the balance getBalance
// answers for the same address.
func TestAccountInfo(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	tests := []struct {
		name, addr string
		want       testAccount // Data: the decoded length as its only element
	}{
		// A token account holds 165 bytes, owned by the Token Program.
		{"token account", string(appendBase58ID(nil, dSolTokenAcct.key(5), keyDigits)), testAccount{Owner: solProgramID(progToken), Space: solTokenSpace}},
		// A wallet holds lamports only.
		{"wallet", string(appendBase58ID(nil, dSolWallet.key(5), keyDigits)), testAccount{Owner: solProgramID(progSystem)}},
		// A program is executable.
		{"program", solProgramID(progMemo), testAccount{Owner: "NativeLoader1111111111111111111111111111111", Executable: true}},
		// An address the ledger never used looks like an empty wallet.
		{"stranger", solAddr, testAccount{Owner: solProgramID(progSystem)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var info struct{ Value testAccount }
			rpcResult(t, n, now, "getAccountInfo", `["`+tt.addr+`",{"encoding":"base64"}]`, &info)
			var bal struct{ Value uint64 }
			rpcResult(t, n, now, "getBalance", `["`+tt.addr+`"]`, &bal)
			a := info.Value
			data, err := base64.StdEncoding.DecodeString(a.Data[0])
			if err != nil || len(data) != tt.want.Space || a.Data[1] != "base64" || a.Owner != tt.want.Owner ||
				a.Space != tt.want.Space || a.Executable != tt.want.Executable || a.Lamports != bal.Value {
				t.Fatalf("account %+v (%d bytes of data, %v), want %+v with getBalance's %d lamports", a, len(data), err, tt.want, bal.Value)
			}
		})
	}
	checkErrors(t, n, now, []errorCase{
		// An encoding the node does not write.
		{"jsonParsed", "getAccountInfo", `["` + solAddr + `",{"encoding":"jsonParsed"}]`, -32602, "base64 only"},
		// Not an address.
		{"address", "getAccountInfo", `["0x12"]`, -32602, msgBalanceParams},
	})
}

// TestProgramAccounts: the Token Program's accounts are every token account, each as
// getAccountInfo answers it; filters by size; context.
func TestProgramAccounts(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	token := solProgramID(progToken)
	var accts []struct {
		Pubkey  string
		Account json.RawMessage
	}
	rpcResult(t, n, now, "getProgramAccounts", `["`+token+`"]`, &accts)
	seen := map[string]bool{}
	for _, a := range accts {
		k, ok := parseSolKey([]byte(a.Pubkey))
		var info struct{ Value json.RawMessage }
		rpcResult(t, n, now, "getAccountInfo", `["`+a.Pubkey+`"]`, &info)
		if !ok || k.d != dSolTokenAcct || seen[a.Pubkey] || string(info.Value) != string(a.Account) {
			t.Fatalf("account %s: %s; getAccountInfo says %s", a.Pubkey, a.Account, info.Value)
		}
		seen[a.Pubkey] = true
	}
	if len(accts) != solWallets {
		t.Fatalf("%d token accounts, want one per wallet: %d", len(accts), solWallets)
	}
	count := func(prog, cfg string) int {
		var v []json.RawMessage
		rpcResult(t, n, now, "getProgramAccounts", `["`+prog+`",`+cfg+`]`, &v)
		return len(v)
	}
	tests := []struct {
		name, prog, cfg string
		want            int
	}{
		// Every token account is 165 bytes.
		{"token size", token, `{"filters":[{"dataSize":165}]}`, solWallets},
		// None is empty.
		{"token empty", token, `{"filters":[{"dataSize":0}],"encoding":"base64"}`, 0},
		// Two sizes at once match nothing.
		{"two sizes", token, `{"filters":[{"dataSize":165},{"dataSize":0}]}`, 0},
		// The System Program owns the wallets, which hold no data.
		{"wallets", solProgramID(progSystem), `{"filters":[{"dataSize":0}]}`, solWallets},
		// A program the ledger does not know owns nothing.
		{"stranger", solAddr, `{}`, 0},
	}
	for _, tt := range tests {
		if got := count(tt.prog, tt.cfg); got != tt.want {
			t.Errorf("%s: %d accounts, want %d", tt.name, got, tt.want)
		}
	}
	var wc struct {
		Context struct{ Slot uint64 }
		Value   []json.RawMessage
	}
	rpcResult(t, n, now, "getProgramAccounts", `["`+token+`",{"withContext":true}]`, &wc)
	if wc.Context.Slot != n.slot(now) || len(wc.Value) != solWallets {
		t.Errorf("with context: slot %d, %d accounts", wc.Context.Slot, len(wc.Value))
	}
	checkErrors(t, n, now, []errorCase{
		// memcmp is a real filter the node does not apply: refused rather than ignored.
		{"memcmp", "getProgramAccounts", `["` + token + `",{"filters":[{"memcmp":{"offset":0,"bytes":"x"}}]}]`, -32602, "dataSize only"},
		// Five filters.
		{"five filters", "getProgramAccounts", `["` + token + `",{"filters":[{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1}]}]`, -32602, "up to 4"},
		// Not a program id.
		{"program", "getProgramAccounts", `[5]`, -32602, msgProgramParam},
	})
}
