package engine

import (
	"bytes"
	"context"
	"testing"

	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/valyala/fasthttp"
)

// TestSendEarlyAnswer: a server that answers 413 before reading a body over its limit, and
// closes (geth does this for a body over 5 MiB), is counted with its status, not as the reset
// the unfinished write ends in. Every send gets the answer, over fresh connections each time.
func TestSendEarlyAnswer(t *testing.T) {
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Early413, Limit: 1 << 20, Body: []byte("request too large")})
	cfg := clientConfig(srv.URL)
	big := append([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":["`), bytes.Repeat([]byte("a"), 6_000_000)...)
	big = append(big, `"]}`...)
	cfg.Requests = []Request{{Name: "big", Body: big, Weight: 1, Items: 1}, {Name: "small", Body: []byte(clientTestBody), Weight: 1, Items: 1}}
	s := dialClient(t, cfg, NewCounters(1), nil).NewSender()
	headMin := uint32(len("POST / HTTP/1.1\r\n\r\n"))
	for i := range 5 {
		smp, _ := sendOne(context.Background(), s, 0)
		if smp.Status != 413 || smp.Err != ErrNone || smp.Outcome != OutcomeFailed {
			t.Errorf("send %d: status %d err %v outcome %v, want 413, no transport error, failed", i, smp.Status, smp.Err, smp.Outcome)
		}
		// BytesOut is what was written before the server closed: at least the headers it
		// answered, never the body it refused in full.
		if smp.BytesOut < headMin || smp.BytesOut >= uint32(len(big)) {
			t.Errorf("send %d: BytesOut %d, want what was written: from %d (headers) to under %d (the body)", i, smp.BytesOut, headMin, len(big))
		}
		t.Logf("send %d: %d bytes of the request written before the 413 (its body: %d)", i, smp.BytesOut, len(big))
	}
	// The connection the early answer came on is never reused: a small request still works.
	if smp, _ := sendOne(context.Background(), s, 1); smp.Status != 200 || smp.Err != ErrNone {
		t.Errorf("small request after: status %d err %v, want 200", smp.Status, smp.Err)
	}
	if n := srv.Conns(); n < 6 {
		t.Errorf("%d connections for 6 requests, 5 of them answered early and closed", n)
	}
}

// TestSendHeadThenGet: a HEAD answer has no body, and the next request on the same exchange
// reads its body again (fasthttp's Do would carry the HEAD's SkipBody over to it, and the
// GET's body would then stay unread on the connection).
func TestSendHeadThenGet(t *testing.T) {
	cfg := clientConfig("http://node.test:8899/")
	cfg.Connections = 1
	cfg.Requests = []Request{
		{Name: "head", Method: "HEAD", Weight: 1, Items: 1},
		{Name: "get", Method: "GET", Weight: 1, Items: 1},
	}
	c := memTarget(t, cfg, NewCounters(1), func(ctx *fasthttp.RequestCtx) {
		ctx.SetContentType("application/json")
		ctx.SetBodyString(`{"ok":true}`)
	})
	s := c.NewSender()
	for i, idx := range []int{0, 1, 0, 1, 1} {
		smp, _ := sendOne(context.Background(), s, idx)
		if smp.Status != 200 || smp.Err != ErrNone {
			t.Fatalf("send %d (%s): status %d err %v, want 200", i, cfg.Requests[idx].Name, smp.Status, smp.Err)
		}
		got := string(s.LastAnswer())
		if want := map[int]string{0: "", 1: `{"ok":true}`}[idx]; got != want {
			t.Errorf("send %d (%s): body %q, want %q", i, cfg.Requests[idx].Name, got, want)
		}
	}
}
