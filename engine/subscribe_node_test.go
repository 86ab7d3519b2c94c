package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// headsNode is a WebSocket node of the tests' own that serves eth_subscribe newHeads: a block
// every period, sent to every subscriber. It shares no code with the engine: its heads are
// written here, by hand. Its knobs misbehave on purpose.
type headsNode struct {
	period time.Duration
	// refuse answers every eth_subscribe with this JSON-RPC error ("" subscribes).
	refuse string
	// dropAfter closes each connection after it has sent that many heads (0: never).
	dropAfter int
	// skipEvery leaves every skipEvery-th block out of the first subscriber's heads (0: none).
	skipEvery uint64
	// status answers the upgrade with this HTTP status instead (0: upgrades).
	status int
	// busy is how long the node's one core works on each HTTP call (eth_blockNumber), during
	// which it sends no notification either: a node slow under load, whose fan-out a spike
	// of calls delays.
	busy time.Duration
	core sync.Mutex

	mu      sync.Mutex
	subs    map[chan []byte]int // subscriber channel → its order of arrival
	next    int
	blocks  uint64
	srv     *httptest.Server
	stopped chan struct{}
}

// startHeads starts n on a loopback port and returns its ws:// URL.
func startHeads(t *testing.T, n *headsNode) string {
	t.Helper()
	n.subs = map[chan []byte]int{}
	n.stopped = make(chan struct{})
	n.srv = httptest.NewServer(http.HandlerFunc(n.serve))
	go n.mine()
	t.Cleanup(func() {
		close(n.stopped)
		n.srv.CloseClientConnections()
		n.srv.Close()
	})
	return "ws" + strings.TrimPrefix(n.srv.URL, "http")
}

// mine makes a block every period and hands its head to every subscriber. A period of a
// second is aligned to the wall clock's seconds, as a chain's slots are, so a head's whole-second
// timestamp is when it was made and its lag is the node's delay alone.
func (n *headsNode) mine() {
	if n.period == time.Second {
		time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	}
	tick := time.NewTicker(n.period)
	defer tick.Stop()
	for {
		select {
		case <-n.stopped:
			return
		case now := <-tick.C:
			n.mu.Lock()
			n.blocks++
			b := n.blocks
			for ch, order := range n.subs {
				if n.skipEvery > 0 && order == 0 && b%n.skipEvery == 0 {
					continue
				}
				msg := fmt.Sprintf(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x%x","result":{"number":"0x%x","hash":"0x%064x","timestamp":"0x%x","parentHash":"0x%064x"}}}`,
					order+1, b, b, now.Unix(), b-1)
				select {
				case ch <- []byte(msg):
				default: // a subscriber that cannot keep up misses heads, as on a real node
				}
			}
			n.mu.Unlock()
		}
	}
}

// serve upgrades, answers the subscribe call and sends heads until the connection ends.
func (n *headsNode) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		n.core.Lock()
		time.Sleep(n.busy)
		n.core.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`))
		return
	}
	if n.status != 0 {
		http.Error(w, "no WebSocket here", n.status)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	ctx := r.Context()
	_, msg, err := c.Read(ctx)
	if err != nil {
		return
	}
	var call struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(msg, &call) != nil || call.Method != "eth_subscribe" {
		return
	}
	if n.refuse != "" {
		_ = c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":%s}`, call.ID, n.refuse))
		_, _, _ = c.Read(ctx) // the subscriber hangs up
		return
	}
	ch := make(chan []byte, 64)
	n.mu.Lock()
	order := n.next
	n.next++
	if err := c.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":"0x%x"}`, call.ID, order+1)); err != nil {
		n.mu.Unlock()
		return
	}
	n.subs[ch] = order
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.subs, ch)
		n.mu.Unlock()
	}()
	go func() { _, _, _ = c.Read(context.Background()) }() // answers pings, sees the close
	for sent := 0; ; sent++ {
		if n.dropAfter > 0 && sent == n.dropAfter {
			_ = c.Close(websocket.StatusGoingAway, "dropped by the test")
			return
		}
		select {
		case m := <-ch:
			n.core.Lock() // a notification waits for the core as a call does
			err := c.Write(ctx, websocket.MessageText, m)
			n.core.Unlock()
			if err != nil {
				return
			}
		case <-ctx.Done():
			return
		case <-n.stopped:
			return
		}
	}
}

// heads is how many blocks the node made.
func (n *headsNode) heads() uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.blocks
}
