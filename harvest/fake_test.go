package harvest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeEVM is a small deterministic EVM chain behind JSON-RPC: block n has n%3 transactions,
// every 5th block a Transfer log of token 0xt…. State is served from prunedBelow on.
type fakeEVM struct {
	head        int64
	prunedBelow int64
	noBatch     bool  // answer a batch with an error object, as some gateways do
	notEVM      bool  // answer eth_chainId with method not found
	failAfter   int64 // answer getBlockByNumber for blocks above it with -32000 (0: never)

	mu        sync.Mutex
	asked     []int64 // block numbers of eth_getBlockByNumber with full transactions
	requests  int
	onRequest func(n int)
}

func (f *fakeEVM) start(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return srv.URL
}

type fakeReq struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

func (f *fakeEVM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests++
	n := f.requests
	hook := f.onRequest
	f.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if len(body) > 0 && body[0] == '[' {
		if f.noBatch {
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches not allowed"}}`)
			return
		}
		var rs []fakeReq
		_ = json.Unmarshal(body, &rs)
		out := make([]json.RawMessage, len(rs))
		for i := range rs {
			out[len(rs)-1-i] = f.answer(rs[i]) // reversed: ids, not order, match answers
		}
		_ = json.NewEncoder(w).Encode(out)
		return
	}
	var q fakeReq
	_ = json.Unmarshal(body, &q)
	_, _ = w.Write(f.answer(q))
}

func (f *fakeEVM) answer(q fakeReq) json.RawMessage {
	res := func(v any) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.ID, "result": v})
		return b
	}
	fail := func(code int, msg string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.ID, "error": map[string]any{"code": code, "message": msg}})
		return b
	}
	switch q.Method {
	case "eth_chainId":
		if f.notEVM {
			return fail(-32601, "the method eth_chainId does not exist/is not available")
		}
		return res("0x539")
	case "eth_blockNumber":
		return res(hexNum(f.head))
	case "eth_getBalance":
		n := f.blockParam(q.Params[1])
		if n < f.prunedBelow {
			return fail(-32000, "missing trie node")
		}
		return res("0x0")
	case "eth_getBlockByNumber":
		n := f.blockParam(q.Params[0])
		if n > f.head {
			return res(nil)
		}
		if f.failAfter > 0 && n > f.failAfter && string(q.Params[1]) == "true" {
			return fail(-32000, "internal error")
		}
		if string(q.Params[1]) == "true" {
			f.mu.Lock()
			f.asked = append(f.asked, n)
			f.mu.Unlock()
		}
		return res(fakeBlock(n))
	case "eth_getLogs":
		var flt map[string]string
		_ = json.Unmarshal(q.Params[0], &flt)
		from, _ := parseHex(flt["fromBlock"])
		to, _ := parseHex(flt["toBlock"])
		var logs []map[string]any
		for b := from; b <= to; b++ {
			if b%5 == 0 {
				logs = append(logs, map[string]any{"address": "0x" + strings.Repeat("7", 40), "blockNumber": hexNum(b), "data": "0x01",
					"topics": []string{transferTopic, topic(b), topic(b + 1)}})
			}
		}
		return res(logs)
	}
	return fail(-32601, "method not found")
}

func (f *fakeEVM) blockParam(raw json.RawMessage) int64 {
	var s string
	_ = json.Unmarshal(raw, &s)
	n, _ := parseHex(s)
	return n
}

func fakeBlock(n int64) map[string]any {
	var txs []map[string]any
	for i := int64(0); i < n%3; i++ {
		txs = append(txs, map[string]any{"hash": fmt.Sprintf("0x%064x", n*10+i), "from": addr(n), "to": addr(n + 1000)})
	}
	return map[string]any{"number": hexNum(n), "hash": fmt.Sprintf("0x%064x", n+1<<40), "transactions": txs}
}

func addr(n int64) string  { return fmt.Sprintf("0x%040x", n) }
func topic(n int64) string { return fmt.Sprintf("0x%064x", n) }

// fakeSolana is a small Solana ledger: slot s has a block unless s%4 == 3 (skipped), with s%2+1
// transactions; the ledger starts at first.
type fakeSolana struct {
	head, first int64
}

func (f *fakeSolana) start(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if len(body) > 0 && body[0] == '[' {
			var rs []fakeReq
			_ = json.Unmarshal(body, &rs)
			out := make([]json.RawMessage, len(rs))
			for i := range rs {
				out[i] = f.answer(rs[i])
			}
			_ = json.NewEncoder(w).Encode(out)
			return
		}
		var q fakeReq
		_ = json.Unmarshal(body, &q)
		_, _ = w.Write(f.answer(q))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (f *fakeSolana) answer(q fakeReq) json.RawMessage {
	res := func(v any) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.ID, "result": v})
		return b
	}
	switch q.Method {
	case "getGenesisHash":
		return res("GenesisFake1111111111111111111111111111111")
	case "getSlot":
		return res(f.head)
	case "getFirstAvailableBlock":
		return res(f.first)
	case "getBlocks":
		var from, to int64
		_ = json.Unmarshal(q.Params[0], &from)
		_ = json.Unmarshal(q.Params[1], &to)
		slots := []int64{}
		for s := max(from, f.first); s <= to; s++ {
			if s%4 != 3 {
				slots = append(slots, s)
			}
		}
		return res(slots)
	case "getBlock":
		var s int64
		_ = json.Unmarshal(q.Params[0], &s)
		var txs []any
		for i := int64(0); i < s%2+1; i++ {
			txs = append(txs, map[string]any{"transaction": map[string]any{
				"signatures": []string{"sig" + strconv.FormatInt(s*10+i, 10)},
				"message": map[string]any{"accountKeys": []string{"acct" + strconv.FormatInt(s%7, 10), "acct" + strconv.FormatInt(s%5+100, 10), "Prog1"},
					"instructions": []map[string]any{{"programIdIndex": 2}}}}})
		}
		return res(map[string]any{"transactions": txs})
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": q.ID, "error": map[string]any{"code": -32601, "message": "Method not found"}})
	return b
}
