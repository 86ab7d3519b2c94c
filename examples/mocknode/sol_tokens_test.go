package mocknode

import (
	"encoding/json"
	"testing"
)

// TestMultipleAccounts: each account as getAccountInfo answers it, in the order asked, one
// item each.
func TestMultipleAccounts(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	keys := []string{
		string(appendBase58ID(nil, dSolTokenAcct.key(3), keyDigits)), // a token account
		string(appendBase58ID(nil, dSolWallet.key(3), keyDigits)),    // a wallet
		solProgramID(progMemo), // a program
		solAddr,                // a stranger: an empty wallet
	}
	list, _ := json.Marshal(keys)
	var got struct{ Value []json.RawMessage }
	rpcResult(t, n, now, "getMultipleAccounts", `[`+string(list)+`,{"encoding":"base64"}]`, &got)
	if len(got.Value) != len(keys) {
		t.Fatalf("%d accounts for %d keys", len(got.Value), len(keys))
	}
	for i, k := range keys {
		var one struct{ Value json.RawMessage }
		rpcResult(t, n, now, "getAccountInfo", `["`+k+`"]`, &one)
		if string(one.Value) != string(got.Value[i]) {
			t.Errorf("account %d (%s): %s, getAccountInfo says %s", i, k, got.Value[i], one.Value)
		}
	}
	if items := itemsAt(t, n, now, "getMultipleAccounts", `[`+string(list)+`]`); items != len(keys) {
		t.Errorf("%d keys cost %d items", len(keys), items)
	}
	many := make([]string, maxMultipleAccounts+1)
	for i := range many {
		many[i] = solAddr
	}
	tooMany, _ := json.Marshal(many)
	checkErrors(t, n, now, []errorCase{
		// The keys are a list.
		{"not a list", "getMultipleAccounts", `["` + solAddr + `"]`, -32602, msgMultipleParams},
		// An empty list asks nothing.
		{"empty", "getMultipleAccounts", `[[]]`, -32602, msgMultipleParams},
		// Solana's cap is 100 keys.
		{"too many", "getMultipleAccounts", `[` + string(tooMany) + `]`, -32602, msgMultipleParams},
		// Every key is an address.
		{"bad key", "getMultipleAccounts", `[["` + solAddr + `","0x12"]]`, -32602, msgMultipleParams},
		// Base64 only, as getAccountInfo.
		{"encoding", "getMultipleAccounts", `[["` + solAddr + `"],{"encoding":"jsonParsed"}]`, -32602, "base64 only"},
	})
}

// TestTokenAccountsByOwner: a wallet's one token account under the Token Program, none for
// other programs, mints or owners.
func TestTokenAccountsByOwner(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	wallet := string(appendBase58ID(nil, dSolWallet.key(7), keyDigits))
	acct := string(appendBase58ID(nil, dSolTokenAcct.key(7), keyDigits))
	byToken := `{"programId":"` + solProgramID(progToken) + `"}`
	type entry struct {
		Pubkey  string
		Account json.RawMessage
	}
	var got struct{ Value []entry }
	rpcResult(t, n, now, "getTokenAccountsByOwner", `["`+wallet+`",`+byToken+`,{"encoding":"base64"}]`, &got)
	var info struct{ Value json.RawMessage }
	rpcResult(t, n, now, "getAccountInfo", `["`+acct+`"]`, &info)
	if len(got.Value) != 1 || got.Value[0].Pubkey != acct || string(got.Value[0].Account) != string(info.Value) {
		t.Fatalf("token accounts of wallet 7: %+v, want %s: %s", got.Value, acct, info.Value)
	}
	tests := []struct{ name, params string }{
		// A program other than the Token Program holds none of the wallet's accounts.
		{"memo program", `["` + wallet + `",{"programId":"` + solProgramID(progMemo) + `"}]`},
		// The ledger names no mint.
		{"mint", `["` + wallet + `",{"mint":"` + solAddr + `"}]`},
		// An address the ledger never used owns nothing.
		{"stranger", `["` + solAddr + `",` + byToken + `]`},
		// A token account owns no token accounts.
		{"token account", `["` + acct + `",` + byToken + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var none struct{ Value []entry }
			rpcResult(t, n, now, "getTokenAccountsByOwner", tt.params, &none)
			if none.Value == nil || len(none.Value) != 0 {
				t.Fatalf("%+v, want []", none.Value)
			}
		})
	}
	checkErrors(t, n, now, []errorCase{
		// The filter is required.
		{"no filter", "getTokenAccountsByOwner", `["` + wallet + `"]`, -32602, msgOwnerParam},
		// Exactly one of mint and programId.
		{"both", "getTokenAccountsByOwner", `["` + wallet + `",{"mint":"` + solAddr + `","programId":"` + solAddr + `"}]`, -32602, "must be {"},
		// The filter's value is an address.
		{"bad program", "getTokenAccountsByOwner", `["` + wallet + `",{"programId":"x"}]`, -32602, "must be {"},
		// The owner is an address.
		{"bad owner", "getTokenAccountsByOwner", `["0x1",` + byToken + `]`, -32602, msgOwnerParam},
		// Base64 only.
		{"encoding", "getTokenAccountsByOwner", `["` + wallet + `",` + byToken + `,{"encoding":"jsonParsed"}]`, -32602, "base64 only"},
	})
}
