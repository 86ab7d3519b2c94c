package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// wsConfig is balanceConfig over WebSocket: conns connections carrying streams calls each.
func wsConfig(url string, conns, streams int, stages ...engine.Stage) *engine.Config {
	cfg := balanceConfig("ws"+strings.TrimPrefix(url, "http"), stages...)
	cfg.Connections, cfg.Streams = conns, streams
	return cfg
}

// checkWSBooks holds the snapshot's invariant, and the tester's counts against the node's: every
// answer the node wrote on a WebSocket is an answer the tester counted, and the tester
// connected as often as the node accepted.
func checkWSBooks(t *testing.T, snap *engine.Snapshot, st mocknode.Stats) {
	t.Helper()
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	if snap.Totals.Inflight != 0 || snap.Totals.Completed != snap.Totals.Sent {
		t.Errorf("sent %d completed %d inflight %d", snap.Totals.Sent, snap.Totals.Completed, snap.Totals.Inflight)
	}
	if snap.Totals.Status["200"] != st.WS.Messages {
		t.Errorf("answers: rpcstress %d, node %d", snap.Totals.Status["200"], st.WS.Messages)
	}
	if snap.Totals.Connections.Dialed != st.WS.Upgrades+st.WS.Refused {
		t.Errorf("dialed %d, node upgraded %d and refused %d", snap.Totals.Connections.Dialed, st.WS.Upgrades, st.WS.Refused)
	}
}

// TestWSCallsMatchNode: calls over 2 WebSocket connections, 8 in flight on each, are all
// answered and matched, single calls and batches (whose fixed ids repeat on every send and
// within the batch, so
// only the ids the transport gives make them unique); the node counts what the tester does.
func TestWSCallsMatchNode(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Latency: 10 * time.Millisecond, Jitter: 10 * time.Millisecond})
	cfg := wsConfig(url, 2, 8, engine.Stage{Rate: 400, Duration: time.Second})
	batch := []byte(`[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}]`)
	cfg.Requests = append(cfg.Requests, engine.Request{Name: "batch", Weight: 1, Items: 3, Body: batch, RPC: engine.ParseRPCCalls(batch)})
	cfg.Requests[0].RPC = engine.ParseRPCCalls(cfg.Requests[0].Body)
	snap := run(t, cfg)
	st := node.Stats()
	checkWSBooks(t, snap, st)
	if snap.Totals.OK != 400 || snap.Totals.Completed != 400 {
		t.Errorf("ok %d completed %d, want 400: %+v", snap.Totals.OK, snap.Totals.Completed, snap.Totals)
	}
	if st.Calls != st.Methods["getBalance"]+st.Methods["getSlot"]+st.Methods["eth_chainId"] || st.Methods["eth_chainId"] == 0 {
		t.Errorf("node calls %+v", st)
	}
	if c := snap.Totals.Connections; c.Dialed != 2 || c.Redialed != 0 {
		t.Errorf("connections %+v, want 2 dialed, none again", c)
	}
}

// TestWSLimited: a limiter's -32005 inside a WebSocket answer counts limited, call by call,
// exactly as often as the node answered it.
func TestWSLimited(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Rate: 100, NoDelay: true})
	cfg := wsConfig(url, 2, 4, engine.Stage{Rate: 400, Duration: time.Second})
	cfg.Requests[0].RPC = engine.ParseRPCCalls(cfg.Requests[0].Body)
	snap := run(t, cfg)
	st := node.Stats()
	checkWSBooks(t, snap, st)
	if snap.Totals.Limited == 0 || snap.Totals.Limited != st.WS.Limited || snap.Totals.OK != st.WS.Messages-st.WS.Limited {
		t.Errorf("limited %d ok %d; node limited %d of %d", snap.Totals.Limited, snap.Totals.OK, st.WS.Limited, st.WS.Messages)
	}
	if snap.Totals.RPCErrors["-32005"] != st.WS.Limited {
		t.Errorf("-32005 counted %d, node %d", snap.Totals.RPCErrors["-32005"], st.WS.Limited)
	}
}

// TestWSDrops: a node that drops a connection every 40 messages: the calls in flight on it
// count ws_closed (at least the message that dropped it), the connection is dialed again, and
// nothing is lost: every call sent has one outcome, every answer the node wrote was counted.
func TestWSDrops(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Latency: 5 * time.Millisecond, WSDropEvery: 40})
	cfg := wsConfig(url, 2, 4, engine.Stage{Rate: 400, Duration: time.Second})
	cfg.Requests[0].RPC = engine.ParseRPCCalls(cfg.Requests[0].Body)
	snap := run(t, cfg)
	st := node.Stats()
	checkWSBooks(t, snap, st)
	closed := snap.Totals.Errors["ws_closed"]
	if st.WS.Drops == 0 || closed < st.WS.Dropped || snap.Totals.Completed != 400 {
		t.Errorf("node dropped %d connections (%d messages unanswered); ws_closed %d, completed %d", st.WS.Drops, st.WS.Dropped, closed, snap.Totals.Completed)
	}
	if snap.Totals.OK+closed != 400 {
		t.Errorf("ok %d + ws_closed %d != 400: %v", snap.Totals.OK, closed, snap.Totals.Errors)
	}
	if r := snap.Totals.Connections.Redialed; r != st.WS.Upgrades-2 {
		t.Errorf("redialed %d, node upgraded %d connections for 2 slots", r, st.WS.Upgrades)
	}
}

// TestWSRefused: a server that answers the upgrade with 403 is counted and named: every call
// has status 403 and failed; the tester keeps trying, with backoff, and counts each try.
func TestWSRefused(t *testing.T) {
	node, url := startNode(t, mocknode.Config{WSRefuse: 403})
	cfg := wsConfig(url, 2, 2, engine.Stage{Rate: 100, Duration: time.Second})
	cfg.Requests[0].RPC = engine.ParseRPCCalls(cfg.Requests[0].Body)
	snap := run(t, cfg)
	st := node.Stats()
	checkWSBooks(t, snap, st)
	if snap.Totals.Status["403"] != 100 || snap.Totals.Failed != 100 {
		t.Errorf("status %v failed %d, want 100 × 403 failed", snap.Totals.Status, snap.Totals.Failed)
	}
	tries := snap.Totals.Connections.Redialed + 2
	if st.WS.Refused != tries || tries < 3 || tries > 2*(1+int64(time.Second/(50*time.Millisecond))) {
		t.Errorf("node refused %d upgrades, tester tried %d: want a few, backed off", st.WS.Refused, tries)
	}
}
