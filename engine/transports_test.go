package engine_test

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// Issue 19: everything after the transport (outcomes, books, histograms, several targets)
// works unchanged on each. These tests run the same plans over every transport the mock node
// speaks and hold the books to the node's own counts, which it keeps per transport.

// useTransport points cfg at the mock node whose HTTP URL is url, over tr: its URL, and 4
// calls in flight on each connection where the transport carries several.
func useTransport(cfg *engine.Config, tr nodetest.Transport, url string) {
	cfg.URL = tr.URL(url)
	cfg.DisplayURL, cfg.H2C = cfg.URL, tr.H2C
	if tr.Name != "http" {
		cfg.Streams = 4
	}
}

// transportBatch is a batch of three calls with ids of its own: over WebSocket they go out
// with the transport's ids, over HTTP as written.
const transportBatch = `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"},{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}]`

// transportConfig is balanceConfig with a batch beside the single call, both JSON-RPC (as
// WebSocket needs), for a run of stages.
func transportConfig(stages ...engine.Stage) *engine.Config {
	cfg := balanceConfig("", stages...)
	cfg.Connections = 8
	cfg.Requests[0].RPC = engine.ParseRPCCalls(cfg.Requests[0].Body)
	batch := []byte(transportBatch)
	return withRequest(cfg, engine.Request{Name: "batch", Weight: 1, Items: 3, Body: batch, RPC: engine.ParseRPCCalls(batch)})
}

// comparedBatch is a batch whose ids are not in the calls' order, of calls whose answers do
// not change with time (a Solana slot would differ between two targets now and then): a
// WebSocket target is sent it with ids that follow the calls, [7, 8, 9], and package answers
// orders a batch answer's items by id.
const comparedBatch = `[{"jsonrpc":"2.0","id":2,"method":"eth_chainId"},` +
	`{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe","0x1"]},` +
	`{"jsonrpc":"2.0","id":"x","method":"eth_getTransactionCount","params":["0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe","0x1"]}]`

// compareConfig is a plan of a call and comparedBatch, whose answers two targets on one node
// give alike.
func compareConfig(stages ...engine.Stage) *engine.Config {
	cfg := balanceConfig("", stages...)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x10",false]}`)
	cfg.Requests[0] = engine.Request{Name: "block", Weight: 1, Items: 1, Body: call, RPC: engine.ParseRPCCalls(call)}
	cfg.Connections = 8
	batch := []byte(comparedBatch)
	return withRequest(cfg, engine.Request{Name: "batch", Weight: 1, Items: 3, Body: batch, RPC: engine.ParseRPCCalls(batch)})
}

// withRequest adds r to cfg's mix.
func withRequest(cfg *engine.Config, r engine.Request) *engine.Config {
	cfg.Requests = append(cfg.Requests, r)
	return cfg
}

// TestTransportsBooksMatchNode: the same two stages, under and over a limiter's rate, over
// each transport: the books balance, every request sent is answered, the node wrote exactly
// the answers counted and limited exactly those counted limited, every call that reached
// the node is a call counted ok, and the connections dialed (and their setup time) are
// counted apart.
func TestTransportsBooksMatchNode(t *testing.T) {
	for _, tr := range nodetest.Transports() {
		t.Run(tr.Name, func(t *testing.T) {
			node, url := startNode(t, tr.Node(mocknode.Config{Rate: 300, Burst: 10, NoDelay: true}))
			cfg := transportConfig(engine.Stage{Rate: 200, Duration: time.Second}, engine.Stage{Rate: 600, Duration: time.Second})
			useTransport(cfg, tr, url)
			snap := run(t, cfg)
			tot, st := snap.Totals, node.Stats()
			if err := tot.CheckInvariant(); err != nil {
				t.Fatal(err)
			}
			answered, limited := tr.Answered(st)
			if tot.Sent != 800 || tot.Completed != 800 || answered != tot.Completed {
				t.Errorf("sent %d completed %d, node answered %d; want 800", tot.Sent, tot.Completed, answered)
			}
			if limited == 0 || tot.Limited != limited || tot.OK != answered-limited || tot.Failed != 0 {
				t.Errorf("ok %d limited %d failed %d; node limited %d of %d", tot.OK, tot.Limited, tot.Failed, limited, answered)
			}
			if tot.Calls.OK != st.Calls || st.Methods["eth_chainId"] == 0 {
				t.Errorf("calls ok %d, node answered %d calls (%v)", tot.Calls.OK, st.Calls, st.Methods)
			}
			var staged int64
			for _, s := range snap.Stages {
				staged += s.Summary.Completed
			}
			if staged != tot.Completed || snap.Stages[0].Summary.Limited >= snap.Stages[1].Summary.Limited {
				t.Errorf("stages completed %d of %d; limited %d then %d", staged, tot.Completed, snap.Stages[0].Summary.Limited, snap.Stages[1].Summary.Limited)
			}
			if c := tot.Connections; c.Dialed == 0 || c.Dialed > int64(cfg.Connections) || c.DialMean <= 0 || c.Redialed != 0 {
				t.Errorf("connections %+v: want 1 to %d dialed, timed, none again", c, cfg.Connections)
			}
		})
	}
}

// TestTransportsSideBySide: two targets on one mock node, HTTP (HTTP/1.1, or HTTP/2 in
// cleartext) beside WebSocket, sent the same requests (comparedBatch among them, whose ids go
// out as written over HTTP and as the connection's over WebSocket): each target's books
// balance, each was scheduled and answered every request, the node's count per transport is
// each target's own, and their answers, compared, all match: the ids the WebSocket transport
// gave never make a difference (before, every batch mismatched: its items compared in
// another order).
func TestTransportsSideBySide(t *testing.T) {
	all := nodetest.Transports()
	ws := all[1]
	for _, http := range []nodetest.Transport{all[0], all[2]} {
		t.Run(http.Name+"+ws", func(t *testing.T) {
			node, url := startNode(t, http.Node(mocknode.Config{}))
			cfg := sideBySide(compareConfig(engine.Stage{Rate: 300, Duration: time.Second}), http.URL(url), ws.URL(url))
			cfg.Streams, cfg.H2C, cfg.CompareAnswers = 4, http.H2C, true
			snap := run(t, cfg)
			if len(snap.Targets) != 2 {
				t.Fatalf("%d targets in the snapshot, want 2", len(snap.Targets))
			}
			st := node.Stats()
			for i, tr := range []nodetest.Transport{http, ws} {
				run := snap.Targets[i]
				checkBooks(t, run)
				answered, _ := tr.Answered(st)
				if run.Totals.Scheduled != 300 || run.Totals.OK != 300 || run.Totals.Completed != answered {
					t.Errorf("target %s over %s: scheduled %d ok %d completed %d, node answered %d", run.Name, tr.Name, run.Totals.Scheduled, run.Totals.OK, run.Totals.Completed, answered)
				}
			}
			if a, b := snap.Targets[0].Totals.Calls, snap.Targets[1].Totals.Calls; a.Sent != b.Sent || a.OK != a.Sent || b.OK != b.Sent || a.OK+b.OK != st.Calls {
				t.Errorf("calls: %s %+v, ws %+v, node %d", http.Name, a, b, st.Calls)
			}
			if c := snap.Answers.Totals; c.Compared != 300 || c.Match != 300 {
				t.Errorf("answers compared %+v, want all 300 alike", c)
			}
		})
	}
}
