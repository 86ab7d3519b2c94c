// Package headtest is a fake chain node for the tests of rpcstress's head tracker: it answers
// the head method (eth_blockNumber or getSlot) with a head the test moves, fails on demand,
// and counts head reads apart from every other call, which it answers with a plain result. It
// shares no code with the tester it checks.
package headtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Node is a fake chain node on a loopback port.
type Node struct {
	// URL is where it listens, with a trailing slash.
	URL   string
	chain string

	head   atomic.Uint64
	follow atomic.Pointer[func() uint64]
	status atomic.Int32 // answer this HTTP status to head reads; 0: answer them
	reads  atomic.Int64
	calls  atomic.Int64
}

// Start starts a node of chain ("evm" or "solana") for the rest of the test, at head.
func Start(t testing.TB, chain string, head uint64) *Node {
	t.Helper()
	if chain != "evm" && chain != "solana" {
		t.Fatalf("headtest: chain %q", chain)
	}
	n := &Node{chain: chain}
	n.head.Store(head)
	srv := httptest.NewServer(http.HandlerFunc(n.serve))
	t.Cleanup(srv.Close)
	n.URL = srv.URL + "/"
	return n
}

// SetHead moves the head.
func (n *Node) SetHead(h uint64) { n.head.Store(h) }

// Follow makes every head read answer f(), e.g. another node's head plus 100: a node ahead.
func (n *Node) Follow(f func() uint64) { n.follow.Store(&f) }

// Head is the head a read answers now.
func (n *Node) Head() uint64 {
	if f := n.follow.Load(); f != nil {
		return (*f)()
	}
	return n.head.Load()
}

// Fail makes head reads answer HTTP status (0: answer them again).
func (n *Node) Fail(status int) { n.status.Store(int32(status)) }

// HeadReads is how many head reads came, failed ones too.
func (n *Node) HeadReads() int64 { return n.reads.Load() }

// Calls is how many other calls came (the load).
func (n *Node) Calls() int64 { return n.calls.Load() }

func (n *Node) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	var call struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err != nil || json.Unmarshal(body, &call) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if len(call.ID) == 0 {
		call.ID = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	headMethod := map[string]string{"evm": "eth_blockNumber", "solana": "getSlot"}[n.chain]
	if call.Method != headMethod {
		n.calls.Add(1)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":"0x0"}`, call.ID)
		return
	}
	n.reads.Add(1)
	if s := n.status.Load(); s != 0 {
		http.Error(w, "failing on purpose", int(s))
		return
	}
	result := fmt.Sprint(n.Head())
	if n.chain == "evm" {
		result = fmt.Sprintf(`"0x%x"`, n.Head())
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, call.ID, result)
}
