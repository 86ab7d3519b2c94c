package promexport

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// TestRunScrapes scrapes a real run against the mock node (its limiter answers 429 to part of
// it) as Prometheus would, many times while it goes: every counter only grows, and the scrape
// after the end gives exactly the snapshot's totals.
func TestRunScrapes(t *testing.T) {
	_, url := nodetest.Start(t, mocknode.Config{Rate: 300, Burst: 10, NoDelay: true})
	cfg := &engine.Config{
		Name: "scraped", URL: url, DisplayURL: url, Timeout: 2 * time.Second, Connections: 16,
		Mode: engine.ModeOpen, Limits: engine.DefaultLimits(),
		Plan: engine.Plan{Stages: []engine.Stage{{Rate: 200, Duration: 700 * time.Millisecond}, {Rate: 600, Duration: 700 * time.Millisecond}}},
		Requests: []engine.Request{
			{Name: "getBalance", Weight: 2, Items: 1, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`)},
			{Name: "getSlot", Weight: 1, Items: 1, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)},
		},
	}
	r, err := engine.NewRunner(cfg, engine.RunOptions{PublishEvery: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c := NewCollector(Options{Target: url, Mode: string(cfg.Mode)})
	c.SetSource(r.Stats)
	stop := make(chan struct{})
	var scrapes []series
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(25 * time.Millisecond):
				s, _ := gather(t, c)
				scrapes = append(scrapes, s)
			}
		}
	})
	snap, err := r.Run(context.Background(), engine.SnapshotMeta{})
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	final, _ := gather(t, c)
	scrapes = append(scrapes, final)
	checkMonotonic(t, scrapes)
	checkFinal(t, final, snap)
}

// checkMonotonic fails on a counter (or histogram count, sum or bucket) that went down from
// one scrape to the next: Prometheus would read it as a restart of the process.
func checkMonotonic(t *testing.T, scrapes []series) {
	t.Helper()
	if len(scrapes) < 20 {
		t.Fatalf("only %d scrapes during the run", len(scrapes))
	}
	for i := 1; i < len(scrapes); i++ {
		for k, prev := range scrapes[i-1] {
			if !isCounter(k) {
				continue
			}
			if now, ok := scrapes[i][k]; !ok || now < prev {
				t.Errorf("scrape %d: %s went from %v to %v (present %v)", i, k, prev, now, ok)
			}
		}
	}
}

func isCounter(series string) bool {
	name, _, _ := strings.Cut(series, "{")
	for _, suffix := range []string{"_total", "_bucket", "_count", "_sum"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// checkFinal holds the scrape after the end against the snapshot's totals, number by number.
func checkFinal(t *testing.T, got series, snap *engine.Snapshot) {
	t.Helper()
	tot := snap.Totals
	if tot.Limited == 0 || tot.OK == 0 {
		t.Fatalf("the run should have both ok and limited answers: %+v", tot)
	}
	want := map[string]float64{
		`rpcstress_requests_scheduled_total{}`:        float64(tot.Scheduled),
		`rpcstress_requests_sent_total{}`:             float64(tot.Sent),
		`rpcstress_requests_dropped_total{}`:          float64(tot.Dropped),
		`rpcstress_requests_total{outcome="ok"}`:      float64(tot.OK),
		`rpcstress_requests_total{outcome="limited"}`: float64(tot.Limited),
		`rpcstress_requests_total{outcome="failed"}`:  float64(tot.Failed),
		`rpcstress_requests_inflight{}`:               float64(tot.Inflight),
		`rpcstress_received_bytes_total{}`:            float64(tot.BytesIn),
		`rpcstress_sent_bytes_total{}`:                float64(tot.BytesOut),
		`rpcstress_state{state="done"}`:               1,
	}
	for status, n := range tot.Status {
		want[`rpcstress_responses_total{status="`+status+`"}`] = float64(n)
	}
	for name, r := range tot.ByRequest {
		want[`rpcstress_method_requests_total{method="`+name+`",outcome="limited"}`] = float64(r.Limited)
		want[`rpcstress_latency_seconds_count{method="`+name+`"}`] = float64(r.Completed)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, the snapshot says %v", k, got[k], w)
		}
	}
	if n := got.sum("rpcstress_responses_total") + got.sum("rpcstress_transport_errors_total"); n != float64(tot.Completed) {
		t.Errorf("statuses and transport errors add up to %v, the snapshot's completed %d", n, tot.Completed)
	}
}
