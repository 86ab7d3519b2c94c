package mocknode

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// wsDial opens a WebSocket to the node; the connection closes when the test ends.
func wsDial(t *testing.T, addr string) net.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, _, err := ws.Dial(ctx, "ws://"+addr+"/")
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// wsMessage is an answer or a notification as the tests read them.
type wsMessage struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Method string `json:"method"`
	Params struct {
		Subscription json.RawMessage `json:"subscription"`
		Result       json.RawMessage `json:"result"`
	} `json:"params"`
}

// wsRead reads one text message within a few seconds.
func wsRead(t *testing.T, c net.Conn) []byte {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	p, err := wsutil.ReadServerText(c)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return p
}

func wsDecode(t *testing.T, p []byte) wsMessage {
	t.Helper()
	var m wsMessage
	if err := json.Unmarshal(p, &m); err != nil {
		t.Fatalf("%v in %s", err, p)
	}
	return m
}

// TestWSCalls: calls sent back to back on one connection are all answered, each with its id,
// a batch as a batch; the node counts the upgrade as an HTTP request (101) and every call.
func TestWSCalls(t *testing.T) {
	n, addr := loopbackNode(t, Config{Latency: 5 * time.Millisecond, Jitter: 5 * time.Millisecond})
	c := wsDial(t, addr)
	const calls = 50
	for i := range calls {
		if err := wsutil.WriteClientText(c, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"getSlot"}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := wsutil.WriteClientText(c, []byte(`[{"id":"a","method":"eth_chainId"},{"id":"b","method":"nope"}]`)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range calls + 1 {
		p := wsRead(t, c)
		if p[0] == '[' {
			if !strings.Contains(string(p), `"result":"0x539","id":"a"`) || !strings.Contains(string(p), `-32601`) {
				t.Errorf("batch answer %s", p)
			}
			seen["batch"] = true
			continue
		}
		m := wsDecode(t, p)
		if m.Error != nil || !strings.HasPrefix(string(m.Result), "30000") {
			t.Errorf("answer %s", p)
		}
		seen[string(m.ID)] = true
	}
	if len(seen) != calls+1 {
		t.Errorf("%d distinct answers, want %d", len(seen), calls+1)
	}
	st := n.Stats()
	if st.WS.Upgrades != 1 || st.Status["101"] != 1 || st.Requests != 1 || st.WS.Messages != calls+1 ||
		st.Calls != calls+2 || st.Methods["getSlot"] != calls || st.RPCErrors["-32601"] != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestWSHandshakes: a refusing node answers the upgrade with its status, counted; a handshake
// without a key is a 400; over HTTP the subscription methods are unknown.
func TestWSHandshakes(t *testing.T) {
	n, addr := loopbackNode(t, Config{WSRefuse: 403})
	_, _, _, err := ws.Dial(context.Background(), "ws://"+addr+"/")
	var status ws.StatusError
	if !errors.As(err, &status) || status != 403 {
		t.Fatalf("dial a refusing node: %v, want status 403", err)
	}
	if st := n.Stats(); st.WS.Refused != 1 || st.Status["403"] != 1 || st.WS.Upgrades != 0 {
		t.Errorf("stats %+v", st)
	}

	_, addr = loopbackNode(t, Config{})
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	_, _ = raw.Write([]byte("GET / HTTP/1.1\r\nHost: node\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(raw), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(body), "Sec-WebSocket-Key") {
		t.Errorf("upgrade without a key: %d %s", resp.StatusCode, body)
	}
	_, c := testNode(t, Config{})
	if code, body := do(t, c, "POST", "/", `{"id":1,"method":"eth_subscribe","params":["newHeads"]}`); code != 200 || !strings.Contains(body, "-32601") {
		t.Errorf("eth_subscribe over HTTP: %d %s", code, body)
	}
}

// TestWSLimited: the limiter answers over WebSocket with -32005 for each call, with its id, as
// providers do; those messages are counted limited and their calls are not counted as served.
func TestWSLimited(t *testing.T) {
	n, addr := loopbackNode(t, Config{Rate: 1, NoDelay: true})
	c := wsDial(t, addr)
	// The first message is admitted (the bucket is new); the next ones within the second are not.
	if err := wsutil.WriteClientText(c, []byte(`{"id":1,"method":"getSlot"}`)); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{"1": string(wsRead(t, c))}
	msgs := []string{`{"id":2,"method":"getSlot"}`, `[{"id":3,"method":"getSlot"},{"id":"x","method":"getSlot"}]`, `not json`}
	for _, m := range msgs {
		if err := wsutil.WriteClientText(c, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	for range msgs {
		p := string(wsRead(t, c))
		switch {
		case strings.Contains(p, `"id":2}`):
			got["2"] = p
		case p[0] == '[':
			got["batch"] = p
		default:
			got["bad"] = p
		}
	}
	limited := `{"jsonrpc":"2.0","error":{"code":-32005,"message":"` + msgRateLimited + `"},"id":`
	want := map[string]string{
		"2":     limited + `2}`,
		"batch": `[` + limited + `3},` + limited + `"x"}]`,
		"bad":   limited + `null}`,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %s\nwant %s", k, got[k], w)
		}
	}
	if !strings.Contains(got["1"], `"result":`) {
		t.Errorf("the first call: %s", got["1"])
	}
	if st := n.Stats(); st.WS.Messages != 4 || st.WS.Limited != 3 || st.Calls != 1 || st.RPCErrors["-32005"] != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestWSDrop: with WSDropEvery 3 the node answers two messages, then closes the connection
// when the third arrives, leaving it unanswered; both are counted.
func TestWSDrop(t *testing.T) {
	n, addr := loopbackNode(t, Config{WSDropEvery: 3})
	c := wsDial(t, addr)
	for i := 1; i <= 2; i++ {
		if err := wsutil.WriteClientText(c, fmt.Appendf(nil, `{"id":%d,"method":"getSlot"}`, i)); err != nil {
			t.Fatal(err)
		}
		wsRead(t, c)
	}
	if err := wsutil.WriteClientText(c, []byte(`{"id":3,"method":"getSlot"}`)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	p, err := wsutil.ReadServerText(c)
	if err == nil {
		t.Fatalf("the third message was answered: %s", p)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the connection was not closed: %v", err)
	}
	st := n.Stats()
	if st.WS.Messages != 2 || st.WS.Drops != 1 || st.WS.Dropped != 1 || st.Calls != 2 {
		t.Errorf("stats %+v", st)
	}
}

// TestWSSubscriptions: newHeads tells of every block once, in order, each with its header;
// slotSubscribe tells of every slot that has a block; unsubscribing answers true once and
// stops the notifications; an unknown kind is an invalid-params error.
func TestWSSubscriptions(t *testing.T) {
	n, addr := loopbackNode(t, Config{BlockTime: 30 * time.Millisecond})
	c := wsDial(t, addr)
	send := func(s string) {
		t.Helper()
		if err := wsutil.WriteClientText(c, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"id":1,"method":"eth_subscribe","params":["newHeads"]}`)
	sub := wsDecode(t, wsRead(t, c))
	if sub.Error != nil || len(sub.Result) < 4 {
		t.Fatalf("subscribe: %+v", sub)
	}
	var last uint64
	for i := range 5 {
		m := wsDecode(t, wsRead(t, c))
		var head struct{ Number, Timestamp string }
		if err := json.Unmarshal(m.Params.Result, &head); err != nil || m.Method != "eth_subscription" || string(m.Params.Subscription) != string(sub.Result) {
			t.Fatalf("notification %+v: %v", m, err)
		}
		num, _ := strconv.ParseUint(strings.TrimPrefix(head.Number, "0x"), 16, 64)
		if i > 0 && num != last+1 {
			t.Errorf("block %d after %d", num, last)
		}
		if want := string(appendHexQuantity(nil, ethTimestamp(num))); `"`+head.Timestamp+`"` != want {
			t.Errorf("block %d timestamp %s, want %s", num, head.Timestamp, want)
		}
		last = num
	}
	send(`{"id":2,"method":"eth_unsubscribe","params":[` + string(sub.Result) + `]}`)
	for {
		m := wsDecode(t, wsRead(t, c))
		if m.Method == "" {
			if string(m.ID) != "2" || string(m.Result) != "true" {
				t.Fatalf("unsubscribe: %+v", m)
			}
			break
		}
	}
	send(`{"id":3,"method":"eth_unsubscribe","params":[` + string(sub.Result) + `]}`)
	if m := wsDecode(t, wsRead(t, c)); string(m.Result) != "false" {
		t.Errorf("second unsubscribe: %+v", m)
	}
	send(`{"id":4,"method":"eth_subscribe","params":["logs",{}]}`)
	if m := wsDecode(t, wsRead(t, c)); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("logs subscription: %+v", m)
	}

	send(`{"id":5,"method":"slotSubscribe"}`)
	if m := wsDecode(t, wsRead(t, c)); m.Error != nil {
		t.Fatalf("slotSubscribe: %+v", m)
	}
	var prev uint64
	for range 3 {
		m := wsDecode(t, wsRead(t, c))
		var slot struct{ Parent, Root, Slot uint64 }
		if err := json.Unmarshal(m.Params.Result, &slot); err != nil || m.Method != "slotNotification" {
			t.Fatalf("slot notification %+v: %v", m, err)
		}
		if skipped(slot.Slot) || slot.Parent != blockAtOrBefore(slot.Slot-1) || prev != 0 && slot.Parent != prev {
			t.Errorf("slot %+v after %d", slot, prev)
		}
		prev = slot.Slot
	}
	st := n.Stats()
	if st.WS.Subscriptions != 2 || st.WS.Notifications < 8 || st.Methods["eth_subscribe"] != 2 || st.Methods["eth_unsubscribe"] != 2 || st.Methods["slotSubscribe"] != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestWSCloseStopsConnections: closing the node ends its WebSocket connections (a close frame
// saying it goes away) instead of waiting for clients to leave.
func TestWSCloseStopsConnections(t *testing.T) {
	n, addr := loopbackNode(t, Config{BlockTime: 20 * time.Millisecond})
	c := wsDial(t, addr)
	if err := wsutil.WriteClientText(c, []byte(`{"id":1,"method":"eth_subscribe","params":["newHeads"]}`)); err != nil {
		t.Fatal(err)
	}
	wsRead(t, c)
	done := make(chan error, 1)
	go func() { done <- n.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return with a WebSocket open")
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, err := wsutil.ReadServerText(c)
		var closed wsutil.ClosedError
		if errors.As(err, &closed) {
			if closed.Code != ws.StatusGoingAway {
				t.Errorf("closed with %d, want going away", closed.Code)
			}
			return
		}
		if err != nil {
			return // the connection ended without a frame: also not waited on
		}
	}
}

// subscribeHeads subscribes c to newHeads and returns the node's answer.
func subscribeHeads(t *testing.T, c net.Conn, id int) wsMessage {
	t.Helper()
	if err := wsutil.WriteClientText(c, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"eth_subscribe","params":["newHeads"]}`, id)); err != nil {
		t.Fatal(err)
	}
	return wsDecode(t, wsRead(t, c))
}

// headOf reads a newHeads notification's number and timestamp.
func headOf(t *testing.T, c net.Conn) (number, ts uint64) {
	t.Helper()
	m := wsDecode(t, wsRead(t, c))
	var h struct{ Number, Timestamp string }
	if err := json.Unmarshal(m.Params.Result, &h); err != nil || m.Method != "eth_subscription" {
		t.Fatalf("not a head: %+v (%v)", m, err)
	}
	number, _ = strconv.ParseUint(strings.TrimPrefix(h.Number, "0x"), 16, 64)
	ts, _ = strconv.ParseUint(strings.TrimPrefix(h.Timestamp, "0x"), 16, 64)
	return number, ts
}

// TestSubLimit: past SubLimit live subscriptions the node refuses with -32005 and its
// message; a subscription that ends (unsubscribed, or its connection closed) gives its place
// back.
func TestSubLimit(t *testing.T) {
	n, addr := loopbackNode(t, Config{SubLimit: 1, BlockTime: time.Second})
	a, b := wsDial(t, addr), wsDial(t, addr)
	first := subscribeHeads(t, a, 1)
	if first.Error != nil {
		t.Fatalf("the first subscription was refused: %+v", first.Error)
	}
	if m := subscribeHeads(t, b, 2); m.Error == nil || m.Error.Code != -32005 || m.Error.Message != msgSubLimit || string(m.ID) != "2" {
		t.Fatalf("past the limit: %+v", m)
	}
	if err := wsutil.WriteClientText(a, []byte(`{"id":3,"method":"eth_unsubscribe","params":[`+string(first.Result)+`]}`)); err != nil {
		t.Fatal(err)
	}
	wsRead(t, a)
	// The place comes back when the subscription's sender has stopped, a moment after the
	// unsubscribe's answer: try again for a while, as a client told to would.
	deadline := time.Now().Add(5 * time.Second)
	for m := subscribeHeads(t, b, 4); m.Error != nil; m = subscribeHeads(t, b, 4) {
		if time.Now().After(deadline) {
			t.Fatalf("after an unsubscribe: %+v", m.Error)
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = b.Close() // its subscription ends with its connection
	deadline = time.Now().Add(5 * time.Second)
	for m := subscribeHeads(t, a, 5); m.Error != nil; m = subscribeHeads(t, a, 5) {
		if time.Now().After(deadline) {
			t.Fatal("a closed connection's subscription kept its place")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A subscription is counted once its answer is written (it starts then), so the count may
	// trail the answer the test read by a moment: wait for it, within bounds.
	st := n.Stats()
	for deadline := time.Now().Add(5 * time.Second); st.WS.Subscriptions < 3 && time.Now().Before(deadline); st = n.Stats() {
		time.Sleep(10 * time.Millisecond)
	}
	if st.RPCErrors["-32005"] < 1 || st.WS.Subscriptions != 3 {
		t.Errorf("stats %+v", st)
	}
}

// TestSubDropAfter: after SubDropAfter notifications the node closes the connection saying
// it goes away (1001), counted as a drop.
func TestSubDropAfter(t *testing.T) {
	n, addr := loopbackNode(t, Config{SubDropAfter: 3, BlockTime: 20 * time.Millisecond})
	c := wsDial(t, addr)
	subscribeHeads(t, c, 1)
	for range 3 {
		headOf(t, c)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := wsutil.ReadServerText(c)
	var closed wsutil.ClosedError
	if !errors.As(err, &closed) || closed.Code != ws.StatusGoingAway {
		t.Fatalf("after 3 notifications: %v, want a close 1001", err)
	}
	if st := n.Stats(); st.WS.Drops != 1 || st.WS.Notifications != 3 {
		t.Errorf("stats %+v", st)
	}
}

// TestSubSkipEvery: with SubSkipEvery 2 a subscriber hears of odd blocks only; every block
// left out is counted.
func TestSubSkipEvery(t *testing.T) {
	n, addr := loopbackNode(t, Config{SubSkipEvery: 2, BlockTime: 20 * time.Millisecond})
	c := wsDial(t, addr)
	subscribeHeads(t, c, 1)
	var last uint64
	for i := range 4 {
		num, _ := headOf(t, c)
		if num%2 == 0 || i > 0 && num != last+2 {
			t.Errorf("block %d after %d", num, last)
		}
		last = num
	}
	if st := n.Stats(); st.WS.Skipped < 3 || st.WS.Notifications < 4 {
		t.Errorf("stats %+v", st)
	}
}

// TestWallClockAndNotifyQueued: with WallClock a block is stamped with the second the node made
// it (the chain starts on a whole second, so its notification arrives just after that second
// begins); with NotifyQueued a notification waits behind the calls in the capacity's queue, so
// a burst of calls just before a block delays its notification by their service time.
func TestWallClockAndNotifyQueued(t *testing.T) {
	const perCall = 50 * time.Millisecond // a capacity of 20 calls a second
	n, addr := loopbackNode(t, Config{WallClock: true, BlockTime: time.Second, Capacity: 20, NotifyQueued: true})
	c := wsDial(t, addr)
	subscribeHeads(t, c, 1)
	late := func() time.Duration {
		_, ts := headOf(t, c)
		return time.Since(time.Unix(int64(ts), 0))
	}
	headOf(t, c) // the first may have waited for the subscribe call's turn
	calm := late()
	if calm < perCall || calm > perCall+150*time.Millisecond {
		t.Errorf("a calm notification arrived %v after its block's second, want its own turn (%v) and little more", calm, perCall)
	}
	// Eight calls queued 300 ms before the next block hold the server for 400 ms: the
	// notification waits 100 ms behind them, then takes its own turn.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(700 * time.Millisecond)))
	for range 8 {
		go func() {
			resp, err := http.Post("http://"+addr+"/", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}`))
			if err == nil {
				_ = resp.Body.Close()
			}
		}()
	}
	busy := late()
	t.Logf("a head's lag behind its timestamp: calm %v, behind 8 calls %v", calm, busy)
	if busy < calm+50*time.Millisecond {
		t.Errorf("behind 8 queued calls a notification arrived %v after its block's second, calm %v", busy, calm)
	}
	if st := n.Stats(); st.Methods["eth_blockNumber"] == 0 {
		t.Errorf("stats %+v", st)
	}
}
