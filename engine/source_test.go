package engine_test

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// listSource streams n requests, alternating getBalance (each with its own account) and
// getSlot, each after delay; then it ends with end (io.EOF, or an error).
type listSource struct {
	n, i  int
	delay time.Duration
	end   error
}

func (s *listSource) Next() (engine.Streamed, error) {
	if s.i == s.n {
		return engine.Streamed{}, s.end
	}
	time.Sleep(s.delay)
	i := s.i
	s.i++
	if i%2 == 1 {
		return engine.Streamed{Index: 1, Request: &engine.Request{Name: "getSlot", Items: 1},
			Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)}, nil
	}
	var req *engine.Request
	if i == 0 {
		req = &engine.Request{Name: "getBalance", Items: 1}
	}
	return engine.Streamed{Index: 0, Request: req,
		Body: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["acct%d"]}`, i)}, nil
}

func sourceConfig(url string, src engine.Source, mode engine.Mode, stage engine.Stage) *engine.Config {
	return &engine.Config{
		Name: "stream", URL: url, DisplayURL: url, Timeout: 2 * time.Second, Connections: 8,
		Mode: mode, Limits: engine.DefaultLimits(), Plan: engine.Plan{Stages: []engine.Stage{stage}},
		Source: src, SourceRequests: 1000,
	}
}

// runSource runs a streamed cfg to its end: its snapshot, whose books must balance, and why
// the stream failed, if it did.
func runSource(t *testing.T, cfg *engine.Config) (*engine.Snapshot, error) {
	t.Helper()
	snap, r := runWith(t, cfg)
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	return snap, r.SourceErr()
}

// TestSourceRunsToItsEnd: a plan without an end runs until the stream ends; every streamed
// request is sent once, counted under its own name, and the node saw exactly those; the
// requests due after the last one are the only ones dropped (the backlog at that moment).
func TestSourceRunsToItsEnd(t *testing.T) {
	for _, mode := range []engine.Mode{engine.ModeOpen, engine.ModeClosed} {
		t.Run(string(mode), func(t *testing.T) {
			node, url := startNode(t, mocknode.Config{})
			src := &listSource{n: 150, end: io.EOF}
			snap, err := runSource(t, sourceConfig(url, src, mode, engine.Stage{Rate: 500}))
			if err != nil || snap.EndReason != engine.EndTargetsEnded {
				t.Fatalf("end reason %q, source error %v; want %q", snap.EndReason, err, engine.EndTargetsEnded)
			}
			st := node.Stats()
			if snap.Totals.Sent != 150 || snap.Totals.Completed != 150 || st.Requests != 150 {
				t.Errorf("sent %d completed %d, node %d; want 150", snap.Totals.Sent, snap.Totals.Completed, st.Requests)
			}
			got := snap.Totals.ByRequest
			if got["getBalance"].Completed != 75 || got["getSlot"].Completed != 75 || len(got) != 2 ||
				st.Methods["getBalance"] != 75 || st.Methods["getSlot"] != 75 {
				t.Errorf("by request %v, node %v; want 75 getBalance and 75 getSlot", counts(got), st.Methods)
			}
			if snap.Totals.Dropped > 8 {
				t.Errorf("dropped %d: more than the requests due once the stream ended", snap.Totals.Dropped)
			}
		})
	}
}

// TestSourceSlowerThanRate: a source slower than the rate is the tester's limit: what it
// cannot supply is dropped and said, never sent late (which would show as the target's
// latency).
func TestSourceSlowerThanRate(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	src := &listSource{n: 1 << 30, delay: 20 * time.Millisecond} // about 50/s
	snap, err := runSource(t, sourceConfig(url, src, engine.ModeOpen, engine.Stage{Rate: 250, Duration: 2 * time.Second}))
	if err != nil || snap.EndReason != engine.EndCompleted {
		t.Fatalf("end reason %q, error %v", snap.EndReason, err)
	}
	tot := snap.Totals
	if tot.Scheduled != 500 || tot.Sent > tot.Scheduled/2 || tot.Dropped < tot.Scheduled/2 {
		t.Errorf("scheduled %d sent %d dropped %d: a source of about 50/s at 250/s must drop most", tot.Scheduled, tot.Sent, tot.Dropped)
	}
	if !hasEvent(snap, "targets", "slower than the rate") || !hasEvent(snap, "targets", "dropped waiting for the source") {
		t.Errorf("events do not say the source was slow: %+v", snap.Events)
	}
	// The mock node answers in well under a millisecond here; a request that waited for the
	// source would carry the wait (up to 20 ms) in its latency.
	if p := tot.Latency.P50; p > 10 {
		t.Errorf("latency p50 %.1f ms: requests waited for the source", p)
	}
}

// TestSourceFails: a broken stream ends the run after what was read before the break, and
// says why.
func TestSourceFails(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	bad := errors.New("stdin:21: targets: not a target")
	src := &listSource{n: 10, end: bad}
	snap, err := runSource(t, sourceConfig(url, src, engine.ModeOpen, engine.Stage{Rate: 500}))
	if snap.EndReason != engine.EndTargetsFailed || !errors.Is(err, bad) {
		t.Fatalf("end reason %q, source error %v", snap.EndReason, err)
	}
	if snap.Totals.Sent != 10 || node.Stats().Requests != 10 || !hasEvent(snap, "targets", "stdin:21") {
		t.Errorf("sent %d, node %d, events %+v", snap.Totals.Sent, node.Stats().Requests, snap.Events)
	}
}

func counts(m map[string]engine.Summary) map[string]int64 {
	out := map[string]int64{}
	for k, v := range m {
		out[k] = v.Completed
	}
	return out
}
