package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestSearchSecondStopLeaves: against a target that never reads, a stopped probe would wait
// for its answers in flight up to the timeout (60 s here). A second Stop (a second Ctrl-C)
// ends that wait: the search returns within seconds, stopped.
func TestSearchSecondStopLeaves(t *testing.T) {
	srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
	cfg := &engine.Config{
		Name: "t", URL: srv.URL, DisplayURL: srv.URL, Timeout: time.Minute, Connections: 4,
		Mode: engine.ModeOpen, Limits: engine.DefaultLimits(),
		Requests: []engine.Request{{Name: "getSlot", Weight: 1, Items: 1, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)}},
	}
	sc := search.DefaultConfig()
	sc.Start, sc.NoBurstProbe = 20, true
	s, err := search.New(sc, &search.EngineProber{Config: cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		o   *search.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := s.Run(context.Background())
		done <- result{o, err}
	}()
	time.Sleep(700 * time.Millisecond) // the first probe has requests in flight
	s.Stop()
	time.Sleep(300 * time.Millisecond)
	s.Stop()
	left := time.Now()
	select {
	case r := <-done:
		t.Logf("returned %s after the second Stop", time.Since(left).Round(time.Millisecond))
		if r.o == nil || r.o.Result.EndReason != search.EndStopped {
			t.Errorf("outcome %+v, err %v: want a stopped search", r.o, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the search still waits for the stopped probe's answers 10 s after the second Stop")
	}
}
