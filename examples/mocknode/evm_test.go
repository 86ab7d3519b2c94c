package mocknode

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

type testEthBlock struct {
	Number, Hash, ParentHash string
	Transactions             []json.RawMessage
}

type testEthTx struct {
	Hash, From, To, Input, Value string
	BlockHash, BlockNumber       string
	TransactionIndex             string
}

type testEthLog struct {
	Address             string
	Topics              []string
	Data, BlockNumber   string
	TransactionHash     string
	TransactionIndex    string
	BlockHash, LogIndex string
	Removed             bool
}

type testReceipt struct {
	TransactionHash, Status, From, To string
	Logs                              []json.RawMessage
}

// word is an address as a 32-byte topic.
func word(addr string) string { return "0x" + zeroHex64[:24] + strings.TrimPrefix(addr, "0x") }

// TestEVMBlocks: blocks, their transactions and receipts agree with one another, whichever
// way they are asked for, and the same block is the same bytes every time.
func TestEVMBlocks(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	var prevHash string
	var tokenCalls, transfers int
	for b := head - 30; b <= head; b++ {
		raw := rpcResult(t, n, now, "eth_getBlockByNumber", "["+hexq(b)+",false]", nil)
		if again := rpcResult(t, n, now.Add(time.Hour), "eth_getBlockByNumber", "["+hexq(b)+",false]", nil); string(again) != string(raw) {
			t.Fatalf("block %d differs an hour later:\n%s\n%s", b, raw, again)
		}
		var blk, full testEthBlock
		_ = json.Unmarshal(raw, &blk)
		fullRaw := rpcResult(t, n, now, "eth_getBlockByNumber", "["+hexq(b)+",true]", &full)
		if blk.Number != strings.Trim(hexq(b), `"`) || (prevHash != "" && blk.ParentHash != prevHash) {
			t.Fatalf("block %d: number %s parent %s, want the previous block's hash %s", b, blk.Number, blk.ParentHash, prevHash)
		}
		prevHash = blk.Hash
		if byHash := rpcResult(t, n, now, "eth_getBlockByHash", "["+q(blk.Hash)+",true]", nil); string(byHash) != string(fullRaw) {
			t.Fatalf("block %d by hash differs from by number", b)
		}
		if len(blk.Transactions) != len(full.Transactions) || uint64(len(blk.Transactions)) != ethTxCount(b) {
			t.Fatalf("block %d: %d hashes, %d transactions", b, len(blk.Transactions), len(full.Transactions))
		}
		for i, txRaw := range full.Transactions {
			var hash string
			var tx testEthTx
			_ = json.Unmarshal(blk.Transactions[i], &hash)
			_ = json.Unmarshal(txRaw, &tx)
			if tx.Hash != hash || tx.BlockHash != blk.Hash || tx.BlockNumber != blk.Number || tx.TransactionIndex != strings.Trim(hexq(uint64(i)), `"`) {
				t.Fatalf("block %d tx %d: %+v, want hash %s in block %s", b, i, tx, hash, blk.Hash)
			}
			if got := rpcResult(t, n, now, "eth_getTransactionByHash", "["+q(hash)+"]", nil); string(got) != string(txRaw) {
				t.Fatalf("tx %s by hash:\n%s\nin the block:\n%s", hash, got, txRaw)
			}
			if checkReceipt(t, n, now, tx) {
				tokenCalls++
			} else {
				transfers++
			}
		}
	}
	if tokenCalls == 0 || transfers == 0 {
		t.Fatalf("31 blocks with %d token calls and %d transfers: the chain should have both", tokenCalls, transfers)
	}
}

// checkReceipt checks tx's receipt: a token call has its Transfer log as ERC-20 writes it,
// a transfer none. It reports whether tx called a token.
func checkReceipt(t *testing.T, n *Node, now time.Time, tx testEthTx) bool {
	t.Helper()
	var r testReceipt
	rpcResult(t, n, now, "eth_getTransactionReceipt", "["+q(tx.Hash)+"]", &r)
	if r.TransactionHash != tx.Hash || r.Status != "0x1" || r.From != tx.From || r.To != tx.To {
		t.Fatalf("receipt %+v of %+v", r, tx)
	}
	isToken := strings.HasPrefix(tx.Input, "0x"+selTransfer)
	if !isToken {
		if len(r.Logs) != 0 || tx.Input != "0x" {
			t.Fatalf("transfer %s: input %s, logs %s", tx.Hash, tx.Input, r.Logs)
		}
		return false
	}
	var l testEthLog
	if len(r.Logs) != 1 || json.Unmarshal(r.Logs[0], &l) != nil {
		t.Fatalf("token call %s: logs %s, want one", tx.Hash, r.Logs)
	}
	want := []string{transferTopic, word(tx.From), "0x" + tx.Input[10:74]}
	if l.Address != tx.To || strings.Join(l.Topics, ",") != strings.Join(want, ",") || l.Data != "0x"+tx.Input[74:] ||
		l.TransactionHash != tx.Hash || l.BlockHash != tx.BlockHash || tx.Value != "0x0" || l.Removed {
		t.Fatalf("token call %+v: log %+v, want topics %v", tx, l, want)
	}
	return true
}

// TestEVMLookupsNull: lookups of what does not exist (yet) answer null, as geth does, and
// the next block appears when its time comes.
func TestEVMLookupsNull(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	next := string(appendHash32(nil, dEthBlock, head+1))
	checkNulls(t, n, now, []errorCase{
		// The block after the head.
		{name: "block beyond head", method: "eth_getBlockByNumber", params: "[" + hexq(head+1) + ",false]"},
		// Its hash, which nobody can know yet.
		{name: "hash of the next block", method: "eth_getBlockByHash", params: "[" + next + ",false]"},
		// A hash the chain never made.
		{name: "unknown block hash", method: "eth_getBlockByHash", params: `["0x` + strings.Repeat("ab", 32) + `",false]`},
		// A transaction hash the chain never made.
		{name: "unknown tx hash", method: "eth_getTransactionByHash", params: `["0x` + strings.Repeat("ab", 32) + `"]`},
		// A well-made hash of a transaction index the block does not have.
		{name: "tx index past the block's", method: "eth_getTransactionByHash", params: "[" + string(appendHash32(nil, dEthTx, head<<8|ethTxCount(head))) + "]"},
		// The receipt of a transaction of the next block.
		{name: "receipt beyond head", method: "eth_getTransactionReceipt", params: "[" + string(appendHash32(nil, dEthTx, (head+1)<<8)) + "]"},
		// A block hash is not a transaction hash.
		{name: "block hash as tx hash", method: "eth_getTransactionByHash", params: "[" + string(appendHash32(nil, dEthBlock, head)) + "]"},
	})
	later := now.Add(ethBlockTime)
	var blk testEthBlock
	rpcResult(t, n, later, "eth_getBlockByHash", "["+next+",false]", &blk)
	if blk.Number != strings.Trim(hexq(head+1), `"`) {
		t.Fatalf("a block time later, the next block is %+v", blk)
	}
	if got := rpcResult(t, n, later, "eth_blockNumber", "[]", nil); string(got) != hexq(head+1) {
		t.Fatalf("eth_blockNumber %s a block time later, want %s", got, hexq(head+1))
	}
}

// TestEVMLogs: eth_getLogs answers exactly the receipts' logs of a range, filtered by address
// and topics with geth's rules.
func TestEVMLogs(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	from := head - 99
	var all []json.RawMessage // the receipts' logs, in order
	var first testEthLog
	for b := from; b <= head; b++ {
		var blk testEthBlock
		rpcResult(t, n, now, "eth_getBlockByNumber", "["+hexq(b)+",false]", &blk)
		for _, h := range blk.Transactions {
			var r testReceipt
			rpcResult(t, n, now, "eth_getTransactionReceipt", "["+string(h)+"]", &r)
			all = append(all, r.Logs...)
		}
	}
	if len(all) < 10 {
		t.Fatalf("100 blocks hold %d logs: too few to test filters", len(all))
	}
	_ = json.Unmarshal(all[0], &first)
	keep := func(f func(testEthLog) bool) (out []string) {
		for _, raw := range all {
			var l testEthLog
			_ = json.Unmarshal(raw, &l)
			if f(l) {
				out = append(out, string(raw))
			}
		}
		return out
	}
	rng := `"fromBlock":` + hexq(from) + `,"toBlock":"latest"`
	tests := []struct {
		name, filter string
		want         []string
	}{
		// Every log of the range.
		{"range", `{` + rng + `}`, keep(func(testEthLog) bool { return true })},
		// One token's.
		{"address", `{` + rng + `,"address":` + q(first.Address) + `}`, keep(func(l testEthLog) bool { return l.Address == first.Address })},
		// A list of addresses, in upper case, one of them no token.
		{"address list", `{` + rng + `,"address":[` + q(ethAddr) + `,` + q("0x"+strings.ToUpper(first.Address[2:])) + `]}`, keep(func(l testEthLog) bool { return l.Address == first.Address })},
		// Transfers to one holder.
		{"recipient topic", `{` + rng + `,"topics":[` + q(transferTopic) + `,null,` + q(first.Topics[2]) + `]}`, keep(func(l testEthLog) bool { return l.Topics[2] == first.Topics[2] })},
		// Transfers from or to one holder's word in a list at position 1.
		{"sender list", `{` + rng + `,"topics":[null,[` + q(first.Topics[1]) + `,` + q(first.Topics[2]) + `]]}`, keep(func(l testEthLog) bool { return l.Topics[1] == first.Topics[1] || l.Topics[1] == first.Topics[2] })},
		// An empty list is a wildcard.
		{"empty list", `{` + rng + `,"topics":[[]]}`, keep(func(testEthLog) bool { return true })},
		// Another event's topic matches nothing.
		{"other event", `{` + rng + `,"topics":["0x` + strings.Repeat("12", 32) + `"]}`, nil},
		// Four positions never match a 3-topic log, even as wildcards (geth's rule).
		{"four positions", `{` + rng + `,"topics":[null,null,null,null]}`, nil},
		// One block by hash.
		{"block hash", `{"blockHash":` + q(first.BlockHash) + `}`, keep(func(l testEthLog) bool { return l.BlockHash == first.BlockHash })},
		// A range beyond the head has nothing yet.
		{"beyond head", `{"fromBlock":` + hexq(head+1) + `,"toBlock":` + hexq(head+5) + `}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []json.RawMessage
			rpcResult(t, n, now, "eth_getLogs", "["+tt.filter+"]", &got)
			if len(got) != len(tt.want) {
				t.Fatalf("%d logs, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if string(got[i]) != tt.want[i] {
					t.Fatalf("log %d:\n got %s\nwant %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestEVMLogErrors: filters the node refuses, as geth and providers refuse them.
func TestEVMLogErrors(t *testing.T) {
	n := mustNode(t, Config{})
	n.maxLogs = 5
	now := n.epoch
	head := n.ethBlock(now)
	checkErrors(t, n, now, []errorCase{
		// More results than the cap: the providers' error, which clients split ranges on.
		{"over the cap", "eth_getLogs", `[{"fromBlock":` + hexq(head-50) + `}]`, -32005, "query returned more than 5 results"},
		// from after to.
		{"inverted range", "eth_getLogs", `[{"fromBlock":` + hexq(head) + `,"toBlock":` + hexq(head-1) + `}]`, -32602, msgLogRange},
		// Wider than the range limit.
		{"range limit", "eth_getLogs", `[{"fromBlock":"0x0","toBlock":"latest"}]`, -32602, "exceed maximum block range"},
		// blockHash with a range.
		{"hash and range", "eth_getLogs", `[{"blockHash":` + string(appendHash32(nil, dEthBlock, head)) + `,"fromBlock":"0x1"}]`, -32602, "cannot specify both"},
		// A hash of no block.
		{"unknown block hash", "eth_getLogs", `[{"blockHash":"0x` + strings.Repeat("ab", 32) + `"}]`, -32000, "unknown block"},
		// Five topic positions.
		{"five positions", "eth_getLogs", `[{"topics":[null,null,null,null,null]}]`, -32602, "exceed max topics"},
		// A topic that is not a hash.
		{"short topic", "eth_getLogs", `[{"topics":["0x12"]}]`, -32602, "topics must be"},
		// An address that is not one.
		{"bad address", "eth_getLogs", `[{"address":"0x12"}]`, -32602, "address must be"},
		// A filter that is not an object.
		{"not an object", "eth_getLogs", `["latest"]`, -32602, "must be a filter"},
		// A block tag that does not exist.
		{"bad tag", "eth_getLogs", `[{"fromBlock":"newest"}]`, -32602, "must be a filter"},
	})
}

// TestEVMStateWindow: with Retain, state older than the window answers geth's missing trie
// node error, state beyond the head its header not found; blocks stay served.
func TestEVMStateWindow(t *testing.T) {
	const retain = 10
	n := mustNode(t, Config{Retain: retain})
	now := n.epoch
	head := n.ethBlock(now)
	token := string(appendEthAddress(nil, dEthToken, 0))
	trie := `missing trie node [0-9a-f]{64} \(path \) <nil>$`
	for _, m := range []struct{ method, before string }{
		{"eth_getBalance", q(ethAddr)},
		{"eth_getTransactionCount", q(ethAddr)},
		{"eth_getCode", token},
		{"eth_call", `{"to":` + token + `,"data":"0x313ce567"}`},
	} {
		t.Run(m.method, func(t *testing.T) {
			at := func(b string) rpcAnswer { return rpcAt(t, n, now, m.method, "["+m.before+","+b+"]") }
			if a := at(hexq(head - retain)); a.Error != nil {
				t.Errorf("the window's first block %d: %s", head-retain, a.raw)
			}
			if a := at(q("latest")); a.Error != nil {
				t.Errorf("latest: %s", a.raw)
			}
			if a := at(hexq(head - retain - 1)); a.Error == nil || a.Error.Code != -32000 || !regexp.MustCompile(trie).MatchString(a.Error.Message) {
				t.Errorf("block %d, before the window: %s, want -32000 %s", head-retain-1, a.raw, trie)
			}
			if a := at(q("earliest")); a.Error == nil || a.Error.Code != -32000 {
				t.Errorf("earliest: %s, want -32000", a.raw)
			}
			if a := at(hexq(head + 1)); a.Error == nil || a.Error.Code != -32000 || a.Error.Message != msgHeaderMissing {
				t.Errorf("beyond the head: %s, want -32000 %s", a.raw, msgHeaderMissing)
			}
		})
	}
	if a := rpcAt(t, n, now, "eth_getBlockByNumber", `["0x1",false]`); a.Error != nil || string(a.Result) == "null" {
		t.Errorf("a pruned node still serves old blocks: %s", a.raw)
	}
	archive := mustNode(t, Config{})
	if a := rpcAt(t, archive, archive.epoch, "eth_getBalance", "["+q(ethAddr)+`,"0x0"]`); a.Error != nil {
		t.Errorf("an archive node serves state at genesis: %s", a.raw)
	}
}

// TestEVMCalls: the token contracts answer balanceOf for the chain's holders (stable, and 0
// for addresses that never held any), decimals and totalSupply; everything else answers "0x".
func TestEVMCalls(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	token := string(appendEthAddress(nil, dEthToken, 1))
	holder := strings.Trim(string(appendEthAddress(nil, dEthWallet, 42)), `"`)
	other := strings.Trim(string(appendEthAddress(nil, dEthWallet, 43)), `"`)
	call := func(to, data string) string {
		var s string
		rpcResult(t, n, now, "eth_call", `[{"to":`+to+`,"data":"`+data+`"},"latest"]`, &s)
		return s
	}
	balanceOf := func(addr string) string { return "0x" + selBalanceOf + word(addr)[2:] }
	got := call(token, balanceOf(holder))
	if len(got) != 66 || got == "0x"+zeroHex64 || got != call(token, balanceOf(strings.ToUpper(holder[2:4])+holder[4:])) {
		t.Fatalf("balanceOf(holder) = %s: want a non-zero 32-byte word, the same however the holder is spelled", got)
	}
	if call(token, balanceOf(other)) == got || call(string(appendEthAddress(nil, dEthToken, 2)), balanceOf(holder)) == got {
		t.Errorf("another holder or another token has the same balance %s", got)
	}
	tests := []struct {
		name, to, data, want string
	}{
		// An address from outside the chain never held the token.
		{"stranger", token, balanceOf(ethAddr), "0x" + zeroHex64},
		// decimals() is 18, as most tokens.
		{"decimals", token, "0x" + selDecimals, "0x" + zeroHex64[:62] + "12"},
		// An unknown selector answers nothing.
		{"unknown selector", token, "0x12345678", "0x"},
		// A wallet has no code: any call answers nothing.
		{"wallet", q(holder), balanceOf(holder), "0x"},
		// balanceOf without its argument answers nothing.
		{"short calldata", token, "0x" + selBalanceOf, "0x"},
	}
	for _, tt := range tests {
		if got := call(tt.to, tt.data); got != tt.want {
			t.Errorf("%s: eth_call answered %s, want %s", tt.name, got, tt.want)
		}
	}
	checkErrors(t, n, now, []errorCase{
		// The call object is missing.
		{"no object", "eth_call", `["latest"]`, -32602, "call object"},
		// to is not an address.
		{"bad to", "eth_call", `[{"to":"0x12"}]`, -32602, "call object"},
		// data is not 0x hex.
		{"bad data", "eth_call", `[{"to":` + token + `,"data":"70a08231"}]`, -32602, "call object"},
	})
}

// TestEVMAccounts: chain id, gas price, code, nonces and balances.
func TestEVMAccounts(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	token := string(appendEthAddress(nil, dEthToken, 0))
	var s string
	if rpcResult(t, n, now, "eth_chainId", "[]", &s); s != "0x539" {
		t.Errorf("chain id %s, want 0x539", s)
	}
	if rpcResult(t, n, now, "eth_gasPrice", "[]", &s); s != strings.Trim(hexq(ethBaseFee(head)+gwei), `"`) {
		t.Errorf("gas price %s, want the head's base fee and a 1 gwei tip", s)
	}
	if rpcResult(t, n, now, "eth_getCode", "["+token+`,"latest"]`, &s); !strings.HasPrefix(s, "0x6080") {
		t.Errorf("a token's code is %s", s)
	}
	if rpcResult(t, n, now, "eth_getCode", "["+q(ethAddr)+`,"latest"]`, &s); s != "0x" {
		t.Errorf("a wallet's code is %s", s)
	}
	lower, mixed := `["`+strings.ToLower(ethAddr)+`","latest"]`, `["`+ethAddr+`","latest"]`
	for _, m := range []string{"eth_getTransactionCount", "eth_getBalance"} {
		a, b := rpcResult(t, n, now, m, lower, nil), rpcResult(t, n, now, m, mixed, nil)
		if string(a) != string(b) || !regexp.MustCompile(`^"0x[0-9a-f]+"$`).Match(a) {
			t.Errorf("%s: %s lower-case, %s checksummed: want the same quantity", m, a, b)
		}
	}
}

// TestEVMFeeHistory: base fees of the blocks and the next, gas ratios, rewards per
// percentile; geth's limits.
func TestEVMFeeHistory(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	var fh struct {
		OldestBlock   string
		BaseFeePerGas []string
		GasUsedRatio  []float64
		Reward        [][]string
	}
	rpcResult(t, n, now, "eth_feeHistory", `["0x4","latest",[25,75]]`, &fh)
	if fh.OldestBlock != strings.Trim(hexq(head-3), `"`) || len(fh.BaseFeePerGas) != 5 || len(fh.GasUsedRatio) != 4 || len(fh.Reward) != 4 {
		t.Fatalf("fee history %+v: want 4 blocks from %d", fh, head-3)
	}
	for i, r := range fh.Reward {
		lo, _ := parseHexQuantity([]byte(r[0]))
		hi, _ := parseHexQuantity([]byte(r[1]))
		if len(r) != 2 || lo > hi || fh.GasUsedRatio[i] < 0 || fh.GasUsedRatio[i] > 1 {
			t.Errorf("block %d: rewards %v, ratio %v", i, r, fh.GasUsedRatio[i])
		}
	}
	checkErrors(t, n, now, []errorCase{
		// No blocks.
		{"zero blocks", "eth_feeHistory", `[0,"latest"]`, -32602, "blockCount"},
		// More than geth's 1024.
		{"too many blocks", "eth_feeHistory", `[1025,"latest"]`, -32602, "blockCount"},
		// Percentiles must rise.
		{"falling percentiles", "eth_feeHistory", `[2,"latest",[75,25]]`, -32602, "rewardPercentiles"},
		// The newest block may not be beyond the head.
		{"beyond head", "eth_feeHistory", `[2,` + hexq(head+1) + `]`, -32000, msgBeyondHead},
	})
}

// TestHexParams: an address is 0x and 40 hex digits, a hash 0x and 64, of either case; any other
// length or a letter that is not hex is refused.
func TestHexParams(t *testing.T) {
	addr := "0x" + strings.Repeat("aB", 20)
	hash := "0X" + strings.Repeat("0f", 32)
	tests := []struct {
		in            string
		address, hash bool
	}{
		{addr, true, false},                     // 40 digits, mixed case
		{hash, false, true},                     // 64 digits, upper-case 0X
		{addr[:41], false, false},               // one digit short
		{addr + "0", false, false},              // one digit over
		{addr[:41] + "g", false, false},         // not a hex digit
		{"1x" + addr[2:], false, false},         // no 0x
		{strings.Repeat("a", 42), false, false}, // digits where 0x goes
		{"", false, false},                      // nothing
	}
	for _, tt := range tests {
		if got := isEthAddress([]byte(tt.in)); got != tt.address {
			t.Errorf("isEthAddress(%q) = %v, want %v", tt.in, got, tt.address)
		}
		if got := isHexHash([]byte(tt.in)); got != tt.hash {
			t.Errorf("isHexHash(%q) = %v, want %v", tt.in, got, tt.hash)
		}
	}
}
