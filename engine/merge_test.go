package engine_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestMergeShardsMatchOneRun: two shards at half the rate, run side by side and merged, give the
// same counts as one full-rate run, and percentiles that agree within the node's own jitter.
func TestMergeShardsMatchOneRun(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Latency: 5 * time.Millisecond})
	stages := []engine.Stage{{Rate: 400, Duration: time.Second}, {Rate: 200, Duration: time.Second}}
	full := run(t, balanceConfig(url, stages...))

	shards := make([]*engine.Snapshot, 2)
	var wg sync.WaitGroup
	for i := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := balanceConfig(url, stages...)
			cfg.Name = "t"
			cfg.Shard, cfg.ShardCount = i+1, 2
			r, err := engine.NewRunner(cfg, engine.RunOptions{})
			if err != nil {
				t.Error(err)
				return
			}
			shards[i], err = r.Run(context.Background(), engine.SnapshotMeta{Profile: []byte(`{"name":"t"}`)})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if shards[0].Totals.Completed != 300 || shards[1].Totals.Completed != 300 {
		t.Errorf("shards completed %d and %d, want 300 each", shards[0].Totals.Completed, shards[1].Totals.Completed)
	}
	m, err := engine.Merge(shards, []string{"a.json", "b.json"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Totals.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	if m.Totals.Completed != full.Totals.Completed || m.Totals.Status["200"] != full.Totals.Status["200"] {
		t.Errorf("merged completed %d (200: %d), one run %d (200: %d)", m.Totals.Completed, m.Totals.Status["200"], full.Totals.Completed, full.Totals.Status["200"])
	}
	for i := range m.Stages {
		if m.Stages[i].Summary.Completed != full.Stages[i].Summary.Completed {
			t.Errorf("stage %d: merged %d, one run %d", i+1, m.Stages[i].Summary.Completed, full.Stages[i].Summary.Completed)
		}
	}
	if node.Stats().Requests != 1200 {
		t.Errorf("node answered %d, want 1200", node.Stats().Requests)
	}
	// Latency is 5 ms + whatever the machine adds; the two ways of measuring must agree within
	// a couple of ms at the median (the HDR precision itself is 0.1 %).
	if d := math.Abs(m.Totals.Latency.P50 - full.Totals.Latency.P50); d > 2 {
		t.Errorf("p50 merged %.3f ms vs one run %.3f ms", m.Totals.Latency.P50, full.Totals.Latency.P50)
	}
	// The merged histogram holds every sample: its count is exact.
	h, err := engine.DecodeHistogram(m.Histograms.Total)
	if err != nil || h.TotalCount() != 600 {
		t.Errorf("merged histogram: %v, count %d, want 600", err, h.TotalCount())
	}
	var rows int64
	for _, r := range m.Timeline {
		rows += r.OK + r.Limited + r.Failed
	}
	if rows != 600 {
		t.Errorf("merged timeline holds %d answers, want 600", rows)
	}
}

// TestMergeRefusesOtherPlans unless forced.
func TestMergeRefusesOtherPlans(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	a := run(t, balanceConfig(url, engine.Stage{Rate: 100, Duration: 200 * time.Millisecond}))
	b := run(t, balanceConfig(url, engine.Stage{Rate: 200, Duration: 200 * time.Millisecond}))
	if _, err := engine.Merge([]*engine.Snapshot{a, b}, []string{"a.json", "b.json"}, false); err == nil {
		t.Error("merged runs of different plans without --force")
	}
	m, err := engine.Merge([]*engine.Snapshot{a, b}, []string{"a.json", "b.json"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if m.Totals.Completed != a.Totals.Completed+b.Totals.Completed {
		t.Errorf("forced merge completed %d", m.Totals.Completed)
	}
}

// TestMergeKeepsPerRequestNumbers: a merge keeps the per-request numbers (by_request) of the
// totals and of every stage: counts summed (equal to the node's own count per method) and
// percentiles from the merged per-request histograms; merging one run gives its own figures.
func TestMergeKeepsPerRequestNumbers(t *testing.T) {
	node, url := startNode(t, mocknode.Config{Latency: 2 * time.Millisecond})
	mix := func() *engine.Config {
		cfg := balanceConfig(url, engine.Stage{Rate: 200, Duration: 500 * time.Millisecond}, engine.Stage{Rate: 400, Duration: 500 * time.Millisecond})
		cfg.Requests = append(cfg.Requests, engine.Request{Name: "getSlot", Weight: 1, Items: 1,
			Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)})
		return cfg
	}
	a, b := run(t, mix()), run(t, mix())
	m, err := engine.Merge([]*engine.Snapshot{a, b}, []string{"a.json", "b.json"}, false)
	if err != nil {
		t.Fatal(err)
	}
	methods := node.Stats().Methods
	for _, name := range []string{"getBalance", "getSlot"} {
		got, ok := m.Totals.ByRequest[name]
		want := a.Totals.ByRequest[name].Completed + b.Totals.ByRequest[name].Completed
		if !ok || got.Completed != want || got.Completed != methods[name] {
			t.Errorf("%s: merged by_request completed %d (present %v), inputs %d, node %d", name, got.Completed, ok, want, methods[name])
		}
		if got.Latency.P50 <= 0 || got.Latency.Max < got.Latency.P50 {
			t.Errorf("%s: merged latency %+v", name, got.Latency)
		}
		var stages int64
		for i, st := range m.Stages {
			stages += st.Summary.ByRequest[name].Completed
			if w := a.Stages[i].Summary.ByRequest[name].Completed + b.Stages[i].Summary.ByRequest[name].Completed; st.Summary.ByRequest[name].Completed != w {
				t.Errorf("%s stage %d: merged %d, inputs %d", name, i+1, st.Summary.ByRequest[name].Completed, w)
			}
		}
		if stages != got.Completed {
			t.Errorf("%s: stages hold %d, totals %d", name, stages, got.Completed)
		}
		h, err := engine.DecodeHistogram(m.Histograms.ByRequest[name].Total)
		if err != nil {
			t.Errorf("%s: merged histogram: %v", name, err)
		} else if h.TotalCount() != got.Completed {
			t.Errorf("%s: merged histogram holds %d, want %d", name, h.TotalCount(), got.Completed)
		}
	}
	one, err := engine.Merge([]*engine.Snapshot{a}, []string{"a.json"}, false)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range a.Totals.ByRequest {
		got := one.Totals.ByRequest[name]
		if got.Latency.P50 != want.Latency.P50 || got.Latency.P99 != want.Latency.P99 || got.Latency.Max != want.Latency.Max {
			t.Errorf("%s: one run merged p50/p99/max %v/%v/%v, the run's own %v/%v/%v", name,
				got.Latency.P50, got.Latency.P99, got.Latency.Max, want.Latency.P50, want.Latency.P99, want.Latency.Max)
		}
	}
}

// TestMergeRefusesOneRunTwice: one run given twice would double every count; so would a run's
// periodic snapshot next to its final one. Both are refused (the error names the two files and
// says how to go on); shards of one plan, which differ in host or shard, are not.
func TestMergeRefusesOneRunTwice(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 0, 0, 123456789, time.UTC)
	snap := func(host, shard, reason string) *engine.Snapshot {
		return &engine.Snapshot{Schema: engine.SnapshotSchema, Host: host, Shard: shard, StartedAt: at, EndReason: reason,
			Profile: []byte(`{"name":"t"}`), Histograms: engine.Histograms{Total: emptyHistogram(t)}}
	}
	tests := []struct {
		name  string
		snaps []*engine.Snapshot
		same  bool
	}{
		// The same file twice.
		{"one run twice", []*engine.Snapshot{snap("a", "", "completed"), snap("a", "", "completed")}, true},
		// A run's periodic snapshot and its final one: the same run, whatever the contents.
		{"partial and final", []*engine.Snapshot{snap("a", "1/2", "running"), snap("b", "2/2", "completed"), snap("a", "1/2", "completed")}, true},
		// Shards of one plan started together (--start-at) on two machines.
		{"two hosts", []*engine.Snapshot{snap("a", "1/2", "completed"), snap("b", "2/2", "completed")}, false},
		// Two shards on one machine.
		{"two shards of one host", []*engine.Snapshot{snap("a", "1/2", "completed"), snap("a", "2/2", "completed")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := []string{"s1.json", "s2.json", "s3.json"}[:len(tt.snaps)]
			_, err := engine.Merge(tt.snaps, names, false)
			refused := err != nil && strings.Contains(err.Error(), "same run") && strings.Contains(err.Error(), "--force")
			if refused != tt.same {
				t.Errorf("merge: %v; want refused as the same run: %v", err, tt.same)
			}
			if _, err := engine.Merge(tt.snaps, names, true); err != nil {
				t.Errorf("--force: %v", err)
			}
		})
	}
}

// emptyHistogram is an encoded histogram with nothing in it, as a snapshot holds one.
func emptyHistogram(t *testing.T) string {
	t.Helper()
	b, err := hdr.New(1, 3_600_000_000, 3).Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// subShards runs a shard of subscriptions per count in subscribers, side by side, against url.
func subShards(t *testing.T, url string, subscribers ...int) []*engine.Snapshot {
	t.Helper()
	shards := make([]*engine.Snapshot, len(subscribers))
	var wg sync.WaitGroup
	for i, n := range subscribers {
		wg.Go(func() {
			cfg := subsConfig(url, n, 0, 2*time.Second)
			cfg.Shard, cfg.ShardCount = i+1, len(subscribers)
			shards[i] = run(t, cfg)
		})
	}
	wg.Wait()
	return shards
}

// mergedQuantile is quantile q (ms) of the shards' histograms of one kind merged here, by
// hand: what the merge must give exactly.
func mergedQuantile(t *testing.T, shards []*engine.Snapshot, pick func(*engine.SubHistograms) string, q float64) float64 {
	t.Helper()
	var m *hdr.Histogram
	for _, s := range shards {
		h, err := engine.DecodeHistogram(pick(s.Subscriptions[0].Histograms))
		if err != nil {
			t.Fatal(err)
		}
		if m == nil {
			m = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		}
		m.Merge(h)
	}
	return math.Round(float64(m.ValueAtQuantile(q))) / 1000
}

// TestMergeSubscriptions: `rpcstress merge` keeps the subscriptions of the shards: counts
// summed, percentiles exact (the shards' histograms merged), the timeline's seconds too, and
// a snapshot that passes the schema. A subscription saved without histograms is refused by
// name.
func TestMergeSubscriptions(t *testing.T) {
	node, url, _ := startHeads(t, mocknode.Config{BlockTime: 100 * time.Millisecond})
	shards := subShards(t, url, 3, 5)
	m, err := engine.Merge(shards, []string{"a.json", "b.json"}, false)
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, m)
	if len(m.Subscriptions) != 1 {
		t.Fatalf("merged subscriptions %+v", m.Subscriptions)
	}
	s, a, b := m.Subscriptions[0], shards[0].Subscriptions[0], shards[1].Subscriptions[0]
	switch {
	case s.Subscribers != 8 || s.Subscribes != a.Subscribes+b.Subscribes || s.Dial.Dialed != 8:
		t.Errorf("subscribers %d subscribes %d dialed %d, want the shards' 3 and 5 added", s.Subscribers, s.Subscribes, s.Dial.Dialed)
	case s.Notifications != a.Notifications+b.Notifications || s.Notifications > node.Stats().WS.Notifications:
		t.Errorf("notifications %d: shards %d and %d, the node sent %d", s.Notifications, a.Notifications, b.Notifications, node.Stats().WS.Notifications)
	case s.Events != max(a.Events, b.Events) || s.LeastPerSubscriber != min(a.LeastPerSubscriber, b.LeastPerSubscriber):
		t.Errorf("events %d least %d; shards %d/%d and %d/%d", s.Events, s.LeastPerSubscriber, a.Events, a.LeastPerSubscriber, b.Events, b.LeastPerSubscriber)
	case s.Gaps == nil || *s.Gaps != *a.Gaps+*b.Gaps:
		t.Errorf("gaps %v, want the shards' added", s.Gaps)
	case s.PerSubscriber <= 0 || math.Abs(s.SubscriberSeconds-a.SubscriberSeconds-b.SubscriberSeconds) > 0.002:
		t.Errorf("per subscriber %.3f over %.3f subscriber·s, shards %.3f and %.3f", s.PerSubscriber, s.SubscriberSeconds, a.SubscriberSeconds, b.SubscriberSeconds)
	}
	for _, k := range []struct {
		name string
		got  float64
		pick func(*engine.SubHistograms) string
	}{
		{"subscribe p99", s.Subscribe.P99, func(h *engine.SubHistograms) string { return h.Subscribe }},
		{"spread p50", s.Spread.P50, func(h *engine.SubHistograms) string { return h.Spread }},
		{"spread p99", s.Spread.P99, func(h *engine.SubHistograms) string { return h.Spread }},
		{"lag p99", s.Lag.P99, func(h *engine.SubHistograms) string { return h.Lag }},
	} {
		q := 99.0
		if strings.HasSuffix(k.name, "p50") {
			q = 50
		}
		if want := mergedQuantile(t, shards, k.pick, q); k.got != want {
			t.Errorf("%s: merged %.3f ms, the shards' histograms give %.3f ms", k.name, k.got, want)
		}
	}
	var rows int64
	for _, r := range m.Timeline {
		for _, sr := range r.Subs {
			rows += sr.Notifications
		}
	}
	if rows != s.Notifications {
		t.Errorf("the merged timeline holds %d notifications, the run %d", rows, s.Notifications)
	}

	old := *shards[1]
	old.Subscriptions = []engine.SubStats{b}
	old.Subscriptions[0].Histograms = nil
	if _, err := engine.Merge([]*engine.Snapshot{shards[0], &old}, []string{"a.json", "old.json"}, false); err == nil ||
		!strings.Contains(err.Error(), "old.json: subscription newHeads: saved without histograms") {
		t.Errorf("a subscription without histograms merged: %v", err)
	}
}
