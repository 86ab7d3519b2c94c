package mocknode

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// answerFor runs body through the node at its epoch (slot 300000000, block 20000000).
func answerFor(t testing.TB, n *Node, body string) (string, tally) {
	t.Helper()
	s := new(scratch)
	n.answer(s, []byte(body), n.epoch)
	return string(s.out), s.tally
}

func mustNode(t testing.TB, cfg Config) *Node {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

const (
	solAddr = "4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"
	ethAddr = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
)

func rpcErr(code int, msg, id string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","error":{"code":%d,"message":"%s"},"id":%s}`, code, msg, id)
}

func TestAnswers(t *testing.T) {
	n := mustNode(t, Config{})
	lamports := fnv1a([]byte(solAddr)) % maxLamports
	tests := []struct {
		name   string
		body   string
		want   string // the exact answer; with sub set, a part of it
		sub    bool
		errors int // JSON-RPC error answers expected in the tally
	}{
		// Solana getBalance answers context.slot and a balance derived from the address.
		{name: "getBalance", body: `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["` + solAddr + `"]}`,
			want: fmt.Sprintf(`{"jsonrpc":"2.0","result":{"context":{"slot":300000000},"value":%d},"id":1}`, lamports)},
		// A config object after the address is accepted, as Solana does.
		{name: "getBalance with config", body: `{"id":1,"method":"getBalance","params":["` + solAddr + `",{"commitment":"finalized"}]}`, want: `"value":`, sub: true},
		// 31 characters is too short for an address.
		{name: "getBalance short", body: `{"id":2,"method":"getBalance","params":["` + solAddr[:31] + `"]}`, want: rpcErr(-32602, msgBalanceParams, "2"), errors: 1},
		// 0, O, I and l are not base58.
		{name: "getBalance not base58", body: `{"id":2,"method":"getBalance","params":["0` + solAddr[1:] + `"]}`, want: rpcErr(-32602, msgBalanceParams, "2"), errors: 1},
		// A number is not an address.
		{name: "getBalance number", body: `{"id":2,"method":"getBalance","params":[12]}`, want: rpcErr(-32602, msgBalanceParams, "2"), errors: 1},
		// No params at all.
		{name: "getBalance no params", body: `{"id":2,"method":"getBalance"}`, want: rpcErr(-32602, msgBalanceParams, "2"), errors: 1},
		// params must be an array.
		{name: "getBalance params object", body: `{"id":2,"method":"getBalance","params":{"a":"` + solAddr + `"}}`, want: rpcErr(-32602, msgBalanceParams, "2"), errors: 1},
		// getSlot is the node's clock in 400 ms slots.
		{name: "getSlot", body: `{"id":3,"method":"getSlot"}`, want: `{"jsonrpc":"2.0","result":300000000,"id":3}`},
		// getBlocks lists the slots of the range, both ends included.
		{name: "getBlocks range", body: `{"id":4,"method":"getBlocks","params":[5,9]}`, want: `{"jsonrpc":"2.0","result":[5,6,7,8,9],"id":4}`},
		// Without an end, the range ends at the current slot.
		{name: "getBlocks open end", body: `{"id":4,"method":"getBlocks","params":[299999999]}`, want: `{"jsonrpc":"2.0","result":[299999999,300000000],"id":4}`},
		// [start, config] also means "up to the current slot".
		{name: "getBlocks start and config", body: `{"id":4,"method":"getBlocks","params":[300000000,{"commitment":"confirmed"}]}`, want: `{"jsonrpc":"2.0","result":[300000000],"id":4}`},
		// An inverted range is empty, not an error.
		{name: "getBlocks inverted", body: `{"id":4,"method":"getBlocks","params":[9,5]}`, want: `{"jsonrpc":"2.0","result":[],"id":4}`},
		// A range past the head ends at the head, and the largest end does not overflow.
		{name: "getBlocks max uint64", body: `{"id":4,"method":"getBlocks","params":[299999999,18446744073709551615]}`, want: `{"jsonrpc":"2.0","result":[299999999,300000000],"id":4}`},
		// A range wholly beyond the head is empty.
		{name: "getBlocks beyond head", body: `{"id":4,"method":"getBlocks","params":[18446744073709551615,18446744073709551615]}`, want: `{"jsonrpc":"2.0","result":[],"id":4}`},
		// Negative slots are invalid.
		{name: "getBlocks negative", body: `{"id":4,"method":"getBlocks","params":[-1,5]}`, want: rpcErr(-32602, msgBlocksParams, "4"), errors: 1},
		// Fractions are invalid.
		{name: "getBlocks fraction", body: `{"id":4,"method":"getBlocks","params":[1.5,5]}`, want: rpcErr(-32602, msgBlocksParams, "4"), errors: 1},
		// Strings are invalid.
		{name: "getBlocks string", body: `{"id":4,"method":"getBlocks","params":["1"]}`, want: rpcErr(-32602, msgBlocksParams, "4"), errors: 1},
		// An empty params array has no start.
		{name: "getBlocks empty", body: `{"id":4,"method":"getBlocks","params":[]}`, want: rpcErr(-32602, msgBlocksParams, "4"), errors: 1},
		// Too many params.
		{name: "getBlocks four params", body: `{"id":4,"method":"getBlocks","params":[1,2,{},4]}`, want: rpcErr(-32602, msgBlocksParams, "4"), errors: 1},
		// eth_blockNumber is a hex quantity: 20000000 = 0x1312d00.
		{name: "eth_blockNumber", body: `{"jsonrpc":"2.0","id":5,"method":"eth_blockNumber","params":[]}`, want: `{"jsonrpc":"2.0","result":"0x1312d00","id":5}`},
		// eth_getBalance answers a hex quantity in wei.
		{name: "eth_getBalance", body: `{"id":6,"method":"eth_getBalance","params":["` + ethAddr + `","latest"]}`, want: `{"jsonrpc":"2.0","result":"0x`, sub: true},
		// 39 hex digits are not an address.
		{name: "eth_getBalance short", body: `{"id":6,"method":"eth_getBalance","params":["` + ethAddr[:41] + `","latest"]}`, want: rpcErr(-32602, msgEthAddress, "6"), errors: 1},
		// g is not hex.
		{name: "eth_getBalance not hex", body: `{"id":6,"method":"eth_getBalance","params":["0xg42d35Cc6634C0532925a3b844Bc454e4438f44e"]}`, want: rpcErr(-32602, msgEthAddress, "6"), errors: 1},
		// A missing 0x prefix.
		{name: "eth_getBalance no prefix", body: `{"id":6,"method":"eth_getBalance","params":["00742d35Cc6634C0532925a3b844Bc454e4438f44e"]}`, want: rpcErr(-32602, msgEthAddress, "6"), errors: 1},
		// latest is the head block.
		{name: "eth_getBlockByNumber latest", body: `{"id":7,"method":"eth_getBlockByNumber","params":["latest",false]}`, want: `{"jsonrpc":"2.0","result":{"number":"0x1312d00","hash":"0x`, sub: true},
		// An explicit old number.
		{name: "eth_getBlockByNumber 0x1", body: `{"id":7,"method":"eth_getBlockByNumber","params":["0x1",true]}`, want: `"number":"0x1","hash":"0x`, sub: true},
		// Beyond the head is null, as geth answers.
		{name: "eth_getBlockByNumber future", body: `{"id":7,"method":"eth_getBlockByNumber","params":["0xffffffff"]}`, want: `{"jsonrpc":"2.0","result":null,"id":7}`},
		// An unknown tag.
		{name: "eth_getBlockByNumber bad tag", body: `{"id":7,"method":"eth_getBlockByNumber","params":["newest",false]}`, want: rpcErr(-32602, msgEthBlockParam, "7"), errors: 1},
		// A decimal number is not a quantity.
		{name: "eth_getBlockByNumber decimal", body: `{"id":7,"method":"eth_getBlockByNumber","params":[12,false]}`, want: rpcErr(-32602, msgEthBlockParam, "7"), errors: 1},
		// The second param must be a boolean.
		{name: "eth_getBlockByNumber fullTx string", body: `{"id":7,"method":"eth_getBlockByNumber","params":["latest","yes"]}`, want: rpcErr(-32602, msgEthFullTx, "7"), errors: 1},
		// Unknown methods are -32601 (the node takes no transactions).
		{name: "unknown method", body: `{"id":8,"method":"eth_sendRawTransaction","params":["0x00"]}`, want: rpcErr(-32601, "Method not found", "8"), errors: 1},
		// Unparsable JSON is -32700 with id null.
		{name: "parse error", body: `{"id":9,"method":`, want: rpcErr(-32700, "Parse error", "null"), errors: 1},
		// An empty body is unparsable too.
		{name: "empty body", body: ``, want: rpcErr(-32700, "Parse error", "null"), errors: 1},
		// No method is -32600, with the id echoed.
		{name: "no method", body: `{"id":10,"params":[]}`, want: rpcErr(-32600, msgNoMethod, "10"), errors: 1},
		// A method that is not a string is -32600.
		{name: "method number", body: `{"id":10,"method":5}`, want: rpcErr(-32600, msgNoMethod, "10"), errors: 1},
		// A bare value is not a call.
		{name: "top-level string", body: `"getSlot"`, want: rpcErr(-32600, msgNotObject, "null"), errors: 1},
		// ids are echoed as given: a string …
		{name: "id string", body: `{"id":"abc","method":"getSlot"}`, want: `"id":"abc"}`, sub: true},
		// … with its escapes kept byte for byte …
		{name: "id escaped string", body: `{"id":"a\"b\u00e9","method":"getSlot"}`, want: `"id":"a\"b\u00e9"}`, sub: true},
		// … null …
		{name: "id null", body: `{"id":null,"method":"getSlot"}`, want: `"id":null}`, sub: true},
		// … absent (a notification, answered anyway) as null …
		{name: "id absent", body: `{"method":"getSlot"}`, want: `"id":null}`, sub: true},
		// … a number beyond int64 without rounding …
		{name: "id huge number", body: `{"id":123456789012345678901234567890,"method":"getSlot"}`, want: `"id":123456789012345678901234567890}`, sub: true},
		// … and a number in exponent form as written.
		{name: "id exponent", body: `{"id":-1.5e3,"method":"getSlot"}`, want: `"id":-1.5e3}`, sub: true},
		// An object id is an invalid request, answered with id null.
		{name: "id object", body: `{"id":{"a":1},"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// fastjson reads NaN as a number; it must not be echoed into JSON.
		{name: "id NaN", body: `{"id":NaN,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// fastjson also reads these as numbers; none is a JSON number, so none is echoed: infinity …
		{name: "id -inf", body: `{"id":-inf,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// … two decimal points …
		{name: "id 1.2.3", body: `{"id":1.2.3,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// … a leading zero …
		{name: "id 01", body: `{"id":01,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// … a point without digits after it …
		{name: "id 1.", body: `{"id":1.,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// … and an exponent without digits.
		{name: "id 1e+", body: `{"id":1e+,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// A boolean id is invalid too.
		{name: "id bool", body: `{"id":true,"method":"getSlot"}`, want: rpcErr(-32600, msgBadID, "null"), errors: 1},
		// An empty batch is one invalid request, not an empty array.
		{name: "empty batch", body: `[]`, want: rpcErr(-32600, msgEmptyBatch, "null"), errors: 1},
		// A batch answers an array, one element per call, in order.
		{name: "batch", body: `[{"id":1,"method":"getSlot"},{"id":"b","method":"eth_blockNumber"}]`,
			want: `[{"jsonrpc":"2.0","result":300000000,"id":1},{"jsonrpc":"2.0","result":"0x1312d00","id":"b"}]`},
		// Bad elements of a batch get their own error answers.
		{name: "batch with bad items", body: `[1,{"id":2,"method":"nope"},{"id":3,"method":"getSlot"}]`,
			want: `[` + rpcErr(-32600, msgNotObject, "null") + `,` + rpcErr(-32601, msgMethodNotFound, "2") + `,{"jsonrpc":"2.0","result":300000000,"id":3}]`, errors: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, tl := answerFor(t, n, tt.body)
			if tt.sub && !strings.Contains(got, tt.want) || !tt.sub && got != tt.want {
				t.Fatalf("answer\n got %s\nwant %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("answer is not valid JSON: %s", got)
			}
			errs := 0
			for _, e := range tl.errors {
				errs += int(e)
			}
			if errs != tt.errors {
				t.Fatalf("tallied %d JSON-RPC errors, want %d", errs, tt.errors)
			}
		})
	}
}

func TestBatchTally(t *testing.T) {
	n := mustNode(t, Config{})
	body := `[{"id":1,"method":"getSlot"},{"id":2,"method":"getSlot"},{"id":3,"method":"getBalance","params":["bad"]},` +
		`{"id":4,"method":"getBlocks","params":[1,10]},{"id":5,"method":"nope"},{"id":6},"x"]`
	_, tl := answerFor(t, n, body)
	blocks := 0 // getBlocks's items: the slots of 1…10 that have a block
	for s := uint64(1); s <= 10; s++ {
		if !skipped(s) {
			blocks++
		}
	}
	want := tally{calls: 7, items: 1 + 1 + 1 + blocks + 1 + 1 + 1}
	want.methods[mGetSlot] = 2
	want.methods[mGetBalance] = 1
	want.methods[mGetBlocks] = 1
	want.methods[mOther] = 1
	want.errors[errInvalidParams] = 1
	want.errors[errMethodNotFound] = 1
	want.errors[errInvalidRequest] = 2
	if tl != want {
		t.Fatalf("tally %+v, want %+v", tl, want)
	}
}

func TestAnswerSizeLimit(t *testing.T) {
	n := mustNode(t, Config{})
	n.maxAnswer = 80
	// Each result is 45 bytes: after two the answer is 92 bytes, past 80, so calls 3 and 4 are refused.
	got, tl := answerFor(t, n, `[{"id":1,"method":"getSlot"},{"id":2,"method":"getSlot"},{"id":3,"method":"getSlot"},{"id":4,"method":"getSlot"}]`)
	if tl.errors[errInternal] != 2 || strings.Count(got, `"result"`) != 2 || !strings.HasSuffix(got, rpcErr(-32603, msgTooLarge, "4")+"]") {
		t.Fatalf("answer %s, tally %+v: want 2 results then 2 -32603 errors", got, tl)
	}
}

func TestGetBlocksCap(t *testing.T) {
	n := mustNode(t, Config{})
	got, tl := answerFor(t, n, `{"id":1,"method":"getBlocks","params":[0,10000000]}`)
	var resp struct{ Result []uint64 }
	if err := json.Unmarshal([]byte(got), &resp); err != nil {
		t.Fatal(err)
	}
	// The range is cut to its first maxBlocksPerCall slots, of which one in solSkipWindow has
	// no block.
	want := maxBlocksPerCall - maxBlocksPerCall/solSkipWindow
	last := resp.Result[len(resp.Result)-1]
	if len(resp.Result) != want || resp.Result[0] != blockAtOrAfter(0) || last != blockAtOrBefore(maxBlocksPerCall-1) {
		t.Fatalf("got %d slots %d…%d, want %d slots with a block in 0…%d", len(resp.Result), resp.Result[0], last, want, maxBlocksPerCall-1)
	}
	if tl.items != want {
		t.Fatalf("latency items %d, want %d (one per slot)", tl.items, want)
	}
}

func TestHeightsGrow(t *testing.T) {
	n := mustNode(t, Config{})
	later := n.epoch.Add(time.Minute)
	if got, want := n.slot(later), uint64(solanaFirstSlot+150); got != want {
		t.Fatalf("slot after a minute %d, want %d", got, want)
	}
	if got, want := n.ethBlock(later), uint64(ethFirstBlock+5); got != want {
		t.Fatalf("block after a minute %d, want %d", got, want)
	}
}

// FuzzAnswer checks that no body makes the node panic, and that a valid JSON request always
// gets a valid JSON answer.
func FuzzAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"method":"getBalance","params":["` + solAddr + `"]}`,
		`[{"id":1,"method":"getSlot"},{"id":"x","method":"getBlocks","params":[1,3]}]`,
		`{"id":1e400,"method":"eth_getBlockByNumber","params":["0x10",false]}`,
		`{"id":"\ud800","method":"nope"}`,
		`[[[]]]`, `{`, `null`, `{"id":-0,"method":"eth_getBalance","params":["` + ethAddr + `"]}`,
		`{"id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x1312cf0","address":["` + ethAddr + `"],"topics":[null,[]]}]}`,
		`{"id":1,"method":"eth_call","params":[{"to":` + string(appendEthAddress(nil, dEthToken, 0)) + `,"data":"0x70a08231"},"0x1"]}`,
		`{"id":1,"method":"eth_getTransactionReceipt","params":[` + string(appendHash32(nil, dEthTx, ethFirstBlock<<8)) + `]}`,
		`{"id":1,"method":"eth_feeHistory","params":["0x2","latest",[10,90]]}`,
		`{"id":1,"method":"getBlock","params":[299999999,{"transactionDetails":"signatures"}]}`,
		`{"id":1,"method":"getSignaturesForAddress","params":["MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",{"limit":3}]}`,
		`{"id":1,"method":"getProgramAccounts","params":["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",{"filters":[{"dataSize":1}]}]}`,
	} {
		f.Add(seed)
	}
	n := mustNode(f, Config{})
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 1<<16 {
			return
		}
		got, _ := answerFor(t, n, body)
		if got == "" {
			t.Fatal("empty answer")
		}
		if json.Valid([]byte(body)) && !json.Valid([]byte(got)) {
			t.Fatalf("valid request %q got invalid answer %q", body, got)
		}
	})
}
