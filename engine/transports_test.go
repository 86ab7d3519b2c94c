package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Issue 19: everything after the transport (outcomes, books, histograms, several targets)
// works unchanged on each. These tests run the same plans over every transport the mock node
// speaks and hold the books to the node's own counts, which it keeps per transport.

// transportCase is one way of reaching the mock node.
type transportCase struct {
	name string
	// use points cfg at the node whose HTTP URL is url, over this transport.
	use func(cfg *engine.Config, url string)
	// answered is the node's count of the answers it wrote over this transport, and limited
	// those of them its limiter refused (a 429 over HTTP, a -32005 over WebSocket).
	answered func(st mocknode.Stats) (answers, limited int64)
}

// transports are the transports every test of this file runs over.
var transports = []transportCase{
	{"http", func(cfg *engine.Config, url string) { cfg.URL, cfg.DisplayURL = url, url }, httpAnswered},
	{"ws", func(cfg *engine.Config, url string) {
		cfg.URL = wsURL(url)
		cfg.DisplayURL, cfg.Streams = cfg.URL, 4
	}, func(st mocknode.Stats) (int64, int64) { return st.WS.Messages, st.WS.Limited }},
}

// wsURL is the mock node's WebSocket URL beside its HTTP url (the same port).
func wsURL(url string) string { return "ws" + strings.TrimPrefix(url, "http") }

// httpAnswered is the node's HTTP answers to JSON-RPC requests: every HTTP request it answered
// but the WebSocket upgrades (which it counts as requests too).
func httpAnswered(st mocknode.Stats) (int64, int64) {
	return st.Requests - st.WS.Upgrades - st.WS.Refused, st.Status["429"]
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
	for _, tc := range transports {
		t.Run(tc.name, func(t *testing.T) {
			node, url := startNode(t, mocknode.Config{Rate: 300, Burst: 10, NoDelay: true})
			cfg := transportConfig(engine.Stage{Rate: 200, Duration: time.Second}, engine.Stage{Rate: 600, Duration: time.Second})
			tc.use(cfg, url)
			snap := run(t, cfg)
			tot, st := snap.Totals, node.Stats()
			if err := tot.CheckInvariant(); err != nil {
				t.Fatal(err)
			}
			answered, limited := tc.answered(st)
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

// TestTransportsSideBySide: two targets on one mock node, one over HTTP and one over
// WebSocket, sent the same requests (a batch among them, whose ids go out as written over HTTP
// and rewritten over WebSocket): each target's books balance, each was scheduled and
// answered every request, and the node's count per transport is each target's own.
func TestTransportsSideBySide(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	cfg := sideBySide(transportConfig(engine.Stage{Rate: 300, Duration: time.Second}), url, wsURL(url))
	cfg.Streams = 4
	snap := run(t, cfg)
	if len(snap.Targets) != 2 {
		t.Fatalf("%d targets in the snapshot, want 2", len(snap.Targets))
	}
	st := node.Stats()
	for i, tc := range transports[:2] {
		tr := snap.Targets[i]
		checkBooks(t, tr)
		answered, _ := tc.answered(st)
		if tr.Totals.Scheduled != 300 || tr.Totals.OK != 300 || tr.Totals.Completed != answered {
			t.Errorf("target %s over %s: scheduled %d ok %d completed %d, node answered %d", tr.Name, tc.name, tr.Totals.Scheduled, tr.Totals.OK, tr.Totals.Completed, answered)
		}
	}
	if a, b := snap.Targets[0].Totals.Calls, snap.Targets[1].Totals.Calls; a.Sent != b.Sent || a.OK != a.Sent || b.OK != b.Sent || a.OK+b.OK != st.Calls {
		t.Errorf("calls: http %+v, ws %+v, node %d", a, b, st.Calls)
	}
}
