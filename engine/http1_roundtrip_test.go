package engine

import (
	"bytes"
	"context"
	"testing"

	"github.com/rpcstress/rpcstress/internal/hostile"
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
