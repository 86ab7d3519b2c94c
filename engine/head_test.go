package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/errtest"
	"github.com/rpcstress/rpcstress/internal/headtest"
)

// TestParseHead: the head is read from each chain's answer, and anything else is an error
// that says what came.
func TestParseHead(t *testing.T) {
	tests := []struct {
		chain Chain
		body  string
		want  uint64
		err   string
	}{
		// EVM: a hex quantity.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":"0x1b4"}`, 436, ""},
		// Upper-case digits and 0X are still hex.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":"0X1B4"}`, 436, ""},
		// Solana: a number.
		{ChainSolana, `{"jsonrpc":"2.0","id":1,"result":300000123}`, 300000123, ""},
		// A JSON-RPC error is named with its code and message.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method eth_blockNumber does not exist"}}`, 0, "JSON-RPC error -32601 (the method eth_blockNumber does not exist)"},
		// A null error beside a result is no error.
		{ChainSolana, `{"jsonrpc":"2.0","id":1,"error":null,"result":7}`, 7, ""},
		// An EVM head written as a number is not what the chain answers.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":436}`, 0, `the result 436 is not a head as evm writes it (a hex quantity such as "0x1b4")`},
		// A Solana head written in hex is not either.
		{ChainSolana, `{"jsonrpc":"2.0","id":1,"result":"0x1b4"}`, 0, `the result "0x1b4" is not a head as solana writes it (a whole number)`},
		// 0x alone, or not hex.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":"0x"}`, 0, "is not a head as evm writes it"},
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":"latest"}`, 0, "is not a head as evm writes it"},
		// Beyond int64: no chain's head.
		{ChainEVM, `{"jsonrpc":"2.0","id":1,"result":"0x8000000000000000"}`, 0, "is not a head as evm writes it"},
		{ChainSolana, `{"jsonrpc":"2.0","id":1,"result":9223372036854775807}`, 9223372036854775807, ""},
		// A negative slot.
		{ChainSolana, `{"jsonrpc":"2.0","id":1,"result":-1}`, 0, "is not a head as solana writes it"},
		// No result.
		{ChainEVM, `{"jsonrpc":"2.0","id":1}`, 0, "the answer has no result"},
		// Not JSON: the start of it is shown.
		{ChainEVM, `<html>502 Bad Gateway</html>`, 0, "the answer is not JSON: <html>502"},
	}
	for _, tt := range tests {
		got, err := parseHead(tt.chain, []byte(tt.body))
		switch m := errtest.Mismatch(err, tt.err); {
		case m != "":
			t.Errorf("%s %s: %s", tt.chain, tt.body, m)
		case got != tt.want:
			t.Errorf("%s %s: got %d, want %d", tt.chain, tt.body, got, tt.want)
		}
	}
}

// headConfig is a run against url following chain's head every 10 ms, with a reference node
// when ref is not "".
func headConfig(chain Chain, url, ref string) *Config {
	return &Config{Name: "t", URL: url, DisplayURL: url, Timeout: 2 * time.Second, Connections: 4,
		Head: HeadConfig{Chain: chain, Every: 10 * time.Millisecond, RefURL: ref, RefDisplay: ref}}
}

// TestPrimeHead: the head is read before the run and kept for the templates; a target that
// cannot say it stops the run before it starts, with what failed and what to do.
func TestPrimeHead(t *testing.T) {
	evm := headtest.Start(t, "evm", 20_000_000)
	sol := headtest.Start(t, "solana", 300_000_000)
	down := headtest.Start(t, "evm", 1)
	down.Fail(http.StatusServiceUnavailable)
	tests := []struct {
		name       string
		chain      Chain
		url, ref   string
		want       uint64
		err, other string
	}{
		// An EVM node's block number.
		{name: "evm", chain: ChainEVM, url: evm.URL, want: 20_000_000},
		// A Solana node's slot, with a reference node that answers.
		{name: "solana", chain: ChainSolana, url: sol.URL, ref: sol.URL, want: 300_000_000},
		// A failing node: the method, the URL and the status.
		{name: "failing", chain: ChainEVM, url: down.URL, err: "chain = evm but eth_blockNumber at " + down.URL + " failed: HTTP 503 Service Unavailable: check the URL"},
		// Nothing listens.
		{name: "refused", chain: ChainEVM, url: "http://127.0.0.1:1/", err: "chain = evm but eth_blockNumber at http://127.0.0.1:1/ failed: dial tcp 127.0.0.1:1: connect: connection refused"},
		// The target answers, the reference node does not: named as such.
		{name: "reference", chain: ChainEVM, url: evm.URL, ref: down.URL, err: "chain = evm but eth_blockNumber at the reference node " + down.URL + " failed: HTTP 503"},
		// A Solana node asked for an EVM head: a JSON-RPC error (headtest answers other
		// methods with "0x0", so the mock node's method-not-found is made by hand below).
		{name: "wrong chain", chain: ChainSolana, url: evm.URL, err: `chain = solana but getSlot at ` + evm.URL + ` failed: the result "0x0" is not a head as solana writes it`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := headConfig(tt.chain, tt.url, tt.ref)
			err := PrimeHead(context.Background(), cfg)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !cfg.Head.Cell.Known() || cfg.Head.Cell.Load() != tt.want {
				t.Fatalf("error %v, head %d known %v, want %d", err, cfg.Head.Cell.Load(), cfg.Head.Cell.Known(), tt.want)
			}
		})
	}
}

// TestPrimeHeadOtherChain: a node that does not know the method is asked whether it serves
// the other chain.
func TestPrimeHeadOtherChain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`))
	}))
	defer srv.Close()
	err := PrimeHead(context.Background(), headConfig(ChainEVM, srv.URL, ""))
	want := `failed: JSON-RPC error -32601 (Method not found): the node does not know eth_blockNumber: if it serves solana, write chain = "solana"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// waitFor polls cond until it holds, for at most 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within 5s", what)
		}
	}
}

// runHeadTracker starts a head tracker over cfg, logging to events (nil: none); cancel ends
// its run, and done closes once the tracker has stopped.
func runHeadTracker(t *testing.T, cfg *Config, events *EventLog) (tr *headTracker, cancel context.CancelFunc, done <-chan struct{}) {
	t.Helper()
	tr, err := newHeadTracker(cfg, events, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() { tr.run(ctx); close(stopped) }()
	return tr, cancel, stopped
}

// TestHeadTrackerFollows: the tracker follows a head the node moves, into the templates' cell;
// a failing node leaves the head stale (kept, counted, said once in the events) and the run
// going; when the node answers again the head moves on.
func TestHeadTrackerFollows(t *testing.T) {
	node := headtest.Start(t, "evm", 100)
	cfg := headConfig(ChainEVM, node.URL, "")
	if err := PrimeHead(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	events := NewEventLog(time.Now())
	tr, cancel, done := runHeadTracker(t, cfg, events)
	defer func() { cancel(); <-done }()

	node.SetHead(105)
	waitFor(t, "head 105", func() bool { return cfg.Head.Cell.Load() == 105 })

	node.Fail(http.StatusTooManyRequests)
	waitFor(t, "stale", func() bool { return tr.state(0).Target.Failing })
	node.SetHead(110) // unseen while failing
	waitFor(t, "two failures", func() bool { return tr.state(0).Target.Failures >= 2 })
	st := tr.state(time.Hour)
	if st.Target.Head != 105 || cfg.Head.Cell.Load() != 105 || !strings.Contains(st.Target.LastErr, "HTTP 429") || st.Target.Age < 59*time.Minute {
		t.Errorf("while failing: %+v, cell %d", st.Target, cfg.Head.Cell.Load())
	}

	node.Fail(0)
	waitFor(t, "head 110", func() bool { return cfg.Head.Cell.Load() == 110 && !tr.state(0).Target.Failing })
	var stale, again int
	for _, e := range events.List() {
		switch {
		case strings.HasPrefix(e.Detail, "head is stale at 105: eth_blockNumber failed (HTTP 429"):
			stale++
		case strings.HasPrefix(e.Detail, "head read again: 110"):
			again++
		}
	}
	if stale != 1 || again != 1 {
		t.Errorf("events %+v: want one stale, one read again", events.List())
	}
}

// TestHeadTrackerCancel: the end of the run stops a read in flight at once, however long the
// timeout, and a read cut short is not counted as failed.
func TestHeadTrackerCancel(t *testing.T) {
	arrived := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // so the server notices the client leave, and ends r's context
		arrived <- struct{}{}
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()
	cfg := headConfig(ChainEVM, srv.URL, "")
	cfg.Timeout = time.Minute
	cfg.Head.Cell = &HeadCell{}
	cfg.Head.Cell.Store(7)
	tr, cancel, done := runHeadTracker(t, cfg, nil)
	<-arrived
	began := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the tracker did not stop within 5s of the cancel")
	}
	if took := time.Since(began); took > time.Second {
		t.Errorf("stopping took %s", took)
	}
	if st := tr.state(0); st.Target.Failures != 0 || st.Target.Head != 7 {
		t.Errorf("after the cancel: %+v", st.Target)
	}
}

// TestNewRunnerNeedsHead: a run that follows a head it never read is refused.
func TestNewRunnerNeedsHead(t *testing.T) {
	cfg := headConfig(ChainEVM, "http://127.0.0.1:1/", "")
	cfg.Requests = []Request{{Name: "x", Body: []byte("{}"), Weight: 1}}
	cfg.Plan = Plan{Stages: []Stage{{Rate: 1, Duration: time.Second}}}
	if _, err := NewRunner(cfg, RunOptions{}); err == nil || !strings.Contains(err.Error(), "call PrimeHead first") {
		t.Fatalf("error %v", err)
	}
}
