package engine

import (
	"testing"
	"time"
)

// TestLatencyByRequest: the published view counts each request's latencies into the fixed
// buckets of LatencyEdges (below an edge, not below the one before), with their sum, and the
// request rows add up to the run's completed requests.
func TestLatencyByRequest(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: time.Hour})
	cfg.Requests = append(cfg.Requests, Request{Name: "s", Body: []byte("{}"), Weight: 1, Items: 1})
	a, c := startAggregator(cfg, 0)
	edges := LatencyEdges()
	samples := []struct {
		req     uint16
		latency time.Duration
		bucket  int // where it must land
	}{
		{0, 50 * time.Microsecond, 0},                      // below the first edge
		{0, edges[0], 1},                                   // on an edge: the bucket above it
		{0, edges[0] - time.Nanosecond, 0},                 // a nanosecond below: the one below
		{0, 3 * time.Millisecond, 5},                       // 2 ms ≤ 3 ms < 5 ms
		{1, 700 * time.Millisecond, 12},                    // another request, its own row
		{1, edges[len(edges)-1] + time.Second, len(edges)}, // slower than the last edge
	}
	b := a.getBatch()
	for _, s := range samples {
		b.Samples = append(b.Samples, Sample{Done: int64(s.latency), Request: s.req, Status: 200})
		c.Stage(0).Scheduled.Add(1)
		c.Stage(0).Sent.Add(1)
		c.RequestSent(0, int(s.req))
	}
	a.submit(b)
	a.Finish("completed")
	st := a.Stats()
	want := map[string]LatencyCounts{}
	for _, s := range samples {
		name := cfg.Requests[s.req].Name
		w := want[name]
		w.Buckets[s.bucket]++
		w.Sum += s.latency.Truncate(time.Microsecond)
		want[name] = w
	}
	var n int64
	for name, w := range want {
		got := st.LatencyByRequest[name]
		if got.Buckets != w.Buckets || got.Sum != w.Sum {
			t.Errorf("%s: got %v sum %v, want %v sum %v", name, got.Buckets, got.Sum, w.Buckets, w.Sum)
		}
		n += got.Count()
	}
	if len(st.LatencyByRequest) != len(want) || n != st.Total.Completed {
		t.Errorf("rows %v count %d, want %d rows adding up to completed %d", st.LatencyByRequest, n, len(want), st.Total.Completed)
	}
}
