package engine_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// sideBySide makes cfg send to the targets at urls side by side, named a, b, c ….
func sideBySide(cfg *engine.Config, urls ...string) *engine.Config {
	cfg.Targets = nil
	for i, u := range urls {
		cfg.Targets = append(cfg.Targets, engine.Target{Name: string(rune('a' + i)), URL: u, DisplayURL: u})
	}
	cfg.URL, cfg.DisplayURL = urls[0], urls[0]
	return cfg
}

// checkBooks holds a target's totals to the invariant, and to every scheduled request being
// sent or dropped (a finished run has nothing queued).
func checkBooks(t *testing.T, tr engine.TargetRun) {
	t.Helper()
	if err := tr.Totals.CheckInvariant(); err != nil {
		t.Errorf("target %s: %v", tr.Name, err)
	}
	if tr.Totals.Queued != 0 || tr.Totals.Inflight != 0 {
		t.Errorf("target %s: queued %d, in flight %d after the run", tr.Name, tr.Totals.Queued, tr.Totals.Inflight)
	}
}

// TestTargetsEachNodeCountsItsLane: two mock nodes side by side, one behind a limiter: each
// node's own counts equal its target's books (sent, completed, 200s and 429s), every target
// was scheduled every request, the limiter's 429s are on its target only, and the top level
// is the first target's.
func TestTargetsEachNodeCountsItsLane(t *testing.T) {
	nodeA, urlA := startNode(t, mocknode.Config{})
	nodeB, urlB := startNode(t, mocknode.Config{Rate: 150, Burst: 5, NoDelay: true})
	cfg := sideBySide(balanceConfig(urlA, engine.Stage{Rate: 300, Duration: time.Second}), urlA, urlB)
	snap, r := runWith(t, cfg)
	if len(snap.Targets) != 2 {
		t.Fatalf("%d targets in the snapshot, want 2", len(snap.Targets))
	}
	for i, node := range []*mocknode.Node{nodeA, nodeB} {
		tr, st := snap.Targets[i], node.Stats()
		checkBooks(t, tr)
		if tr.Totals.Scheduled != 300 || tr.Totals.Sent != st.Requests || tr.Totals.Completed != st.Requests {
			t.Errorf("target %s: scheduled %d sent %d completed %d, node counted %d", tr.Name, tr.Totals.Scheduled, tr.Totals.Sent, tr.Totals.Completed, st.Requests)
		}
		t.Logf("target %s: sent %d, 200 %d, 429 %d; its node: %d, 200 %d, 429 %d", tr.Name, tr.Totals.Sent,
			tr.Totals.Status["200"], tr.Totals.Status["429"], st.Requests, st.Status["200"], st.Status["429"])
		for _, code := range []string{"200", "429"} {
			if tr.Totals.Status[code] != st.Status[code] {
				t.Errorf("target %s status %s: rpcstress %d, node %d", tr.Name, code, tr.Totals.Status[code], st.Status[code])
			}
		}
	}
	if a, b := snap.Targets[0].Totals.Limited, snap.Targets[1].Totals.Limited; a != 0 || b == 0 {
		t.Errorf("limited a %d b %d: only b is behind a limiter", a, b)
	}
	if !reflect.DeepEqual(snap.Totals, snap.Targets[0].Totals) || snap.Target != urlA || snap.Targets[1].Target != urlB {
		t.Errorf("the top level is not the first target's: target %q, totals %+v", snap.Target, snap.Totals)
	}
	st := r.Stats()
	if len(st.Targets) != 2 || st.Targets[0].TargetName != "a" || st.Targets[1].TargetName != "b" || st.Targets[1].Target != urlB {
		t.Fatalf("Stats.Targets: %d views", len(st.Targets))
	}
	if st.Targets[1].Total.Completed != snap.Targets[1].Totals.Completed {
		t.Errorf("b's final view: completed %d, snapshot %d", st.Targets[1].Total.Completed, snap.Targets[1].Totals.Completed)
	}
}

// recorder is a JSON-RPC target that keeps every body it received.
type recorder struct {
	URL    string
	mu     sync.Mutex
	bodies []string
}

func startRecorder(t *testing.T) *recorder {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.bodies = append(rec.bodies, string(b))
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":"0x1"}`)
	}))
	t.Cleanup(srv.Close)
	rec.URL = srv.URL + "/"
	return rec
}

// received is the bodies received, sorted.
func (r *recorder) received() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.bodies))
}

// randomTemplate renders a body with a random number, different at every send.
type randomTemplate struct{}

func (randomTemplate) Append(dst []byte, rng *rand.Rand) []byte {
	dst = append(dst, `{"jsonrpc":"2.0","id":1,"method":"m","params":["`...)
	dst = strconv.AppendUint(dst, rng.Uint64(), 16)
	return append(dst, `"]}`...)
}

// TestTargetsSameBodies: each scheduled request is rendered once and the same body goes to
// every target: three targets receive the same set of bodies, each body random (so a
// rendering per target would differ).
func TestTargetsSameBodies(t *testing.T) {
	recs := []*recorder{startRecorder(t), startRecorder(t), startRecorder(t)}
	cfg := sideBySide(balanceConfig(recs[0].URL, engine.Stage{Rate: 200, Duration: time.Second}), recs[0].URL, recs[1].URL, recs[2].URL)
	cfg.Requests = []engine.Request{{Name: "r", Weight: 1, Items: 1, Template: randomTemplate{}, Body: randomTemplate{}.Append(nil, rand.New(rand.NewPCG(1, 1)))}}
	snap := run(t, cfg)
	want := recs[0].received()
	if len(want) != 200 || len(slices.Compact(slices.Clone(want))) != 200 {
		t.Fatalf("a received %d bodies (%d distinct), want 200 distinct", len(want), len(slices.Compact(slices.Clone(want))))
	}
	for i, rec := range recs[1:] {
		if got := rec.received(); !slices.Equal(got, want) {
			t.Errorf("target %s received other bodies than a (%d of them)", snap.Targets[i+1].Name, len(got))
		}
	}
	for _, tr := range snap.Targets {
		checkBooks(t, tr)
	}
}

// TestTargetsDeadTargetSparesOthers: a target that never reads fills its few connections and
// its backlog and drops the rest, on its own books; the healthy target beside it sends every
// request, drops none and keeps its rate.
func TestTargetsDeadTargetSparesOthers(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	dead := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
	const rate = 200
	cfg := sideBySide(balanceConfig(url, engine.Stage{Rate: rate, Duration: 1500 * time.Millisecond}), url, dead.URL)
	cfg.Timeout, cfg.Backlog = 300*time.Millisecond, 8
	cfg.Targets[1].Connections = 2
	snap := run(t, cfg)
	good, bad := snap.Targets[0], snap.Targets[1]
	checkBooks(t, good)
	checkBooks(t, bad)
	if good.Totals.Dropped != 0 || good.Totals.Completed != good.Totals.Scheduled || good.Totals.OK != node.Stats().Requests {
		t.Errorf("healthy target: scheduled %d completed %d ok %d dropped %d, node %d", good.Totals.Scheduled, good.Totals.Completed, good.Totals.OK, good.Totals.Dropped, node.Stats().Requests)
	}
	if got := good.Stages[0].Summary.RPS; got < 0.85*rate || got > 1.15*rate {
		t.Errorf("healthy target's rate %.1f/s, want about %d/s", got, rate)
	}
	// Latency counts from the intended time: a hand-off that waited for the dead target's
	// backlog (a slot frees every 150 ms) would make the healthy target's requests late by
	// seconds, though its rate over the stage's time still looked right.
	if p99 := good.Totals.Latency.P99; p99 > 250 {
		t.Errorf("healthy target's p99 latency %.1f ms: its sends waited for the dead target", p99)
	}
	if bad.Totals.Dropped == 0 || bad.Totals.Errors["timeout"] == 0 {
		t.Errorf("dead target: dropped %d, timeouts %d: want both", bad.Totals.Dropped, bad.Totals.Errors["timeout"])
	}
}

// TestTargetsStopActsOnAll: a snapshot taken mid-run holds every target; a stop ends the one
// schedule for every target, the drain waits for both, and both books balance with the same
// schedule.
func TestTargetsStopActsOnAll(t *testing.T) {
	_, urlA := startNode(t, mocknode.Config{Latency: 20 * time.Millisecond})
	_, urlB := startNode(t, mocknode.Config{Latency: 40 * time.Millisecond})
	cfg := sideBySide(balanceConfig(urlA, engine.Stage{Rate: 300, Duration: time.Minute}), urlA, urlB)
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mid := make(chan *engine.Snapshot, 1)
	var stopAt time.Duration // when the stop came: the snapshot before takes a while under -race
	time.AfterFunc(400*time.Millisecond, func() {
		s, err := r.SnapshotNow(engine.SnapshotMeta{}) // a periodic save's
		if err != nil {
			t.Error(err)
		}
		stopAt = time.Since(r.Start())
		mid <- s
		r.Controller().Stop("quit")
	})
	snap, err := r.Run(t.Context(), engine.SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, snap)
	if m := <-mid; m == nil || m.EndReason != engine.EndRunning || len(m.Targets) != 2 || m.Targets[1].Name != "b" {
		t.Errorf("the snapshot taken mid-run has no targets: %+v", m)
	} else {
		checkSchema(t, m)
	}
	if snap.EndReason != "quit" {
		t.Errorf("end reason %q", snap.EndReason)
	}
	a, b := snap.Targets[0].Totals, snap.Targets[1].Totals
	for _, tr := range snap.Targets {
		checkBooks(t, tr)
	}
	if most := int64(300 * (stopAt + 100*time.Millisecond).Seconds()); a.Scheduled != b.Scheduled || a.Scheduled < 100 || a.Scheduled > most {
		t.Errorf("scheduled a %d b %d: one schedule at 300/s, stopped after %s", a.Scheduled, b.Scheduled, stopAt)
	}
}

// nopSource is a stream that has ended.
type nopSource struct{}

func (nopSource) Next() (engine.Streamed, error) { return engine.Streamed{}, io.EOF }

// TestTargetsRefused: what cannot run side by side is refused before anything is sent, with
// the fix named.
func TestTargetsRefused(t *testing.T) {
	base := func() *engine.Config {
		return sideBySide(balanceConfig("http://127.0.0.1:1/", engine.Stage{Rate: 1, Duration: time.Second}), "http://127.0.0.1:1/", "http://127.0.0.1:2/")
	}
	tests := []struct {
		name   string
		change func(*engine.Config)
		want   string
	}{
		// Closed loop has no schedule to share.
		{"closed", func(c *engine.Config) { c.Mode = engine.ModeClosed }, "side by side needs one schedule: use open mode"},
		// A stream is read once: it cannot be sent to several targets.
		{"stream", func(c *engine.Config) { c.Source, c.SourceRequests = nopSource{}, 1 }, "write them to a file and give --targets FILE"},
		// One target is no side by side.
		{"one", func(c *engine.Config) { c.Targets = c.Targets[:1] }, "side by side needs two or more"},
		// Names label columns and sections: they must differ.
		{"same names", func(c *engine.Config) { c.Targets[1].Name = "a" }, `targets 1 and 2 are both named "a"`},
		// A target without a name.
		{"no name", func(c *engine.Config) { c.Targets[1].Name = " " }, "target 2 has no name"},
		// A target without a URL.
		{"no url", func(c *engine.Config) { c.Targets[1].URL = "" }, "target 2 (b) has no url"},
		// Comparing needs something to compare with.
		{"compare one", func(c *engine.Config) { c.Targets, c.CompareAnswers = nil, true }, "compare_answers needs two targets or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base()
			tt.change(cfg)
			_, err := engine.NewRunner(cfg, engine.RunOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestTargetsStatsView: with several targets Stats is the first target's view with every
// target's beside it, and the same view until a target publishes a new one, so the dashboard
// redraws only on news.
func TestTargetsStatsView(t *testing.T) {
	_, urlA := startNode(t, mocknode.Config{})
	_, urlB := startNode(t, mocknode.Config{})
	cfg := sideBySide(balanceConfig(urlA, engine.Stage{Rate: 50, Duration: 300 * time.Millisecond}), urlA, urlB)
	r, err := engine.NewRunner(cfg, engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := r.Stats()
	if r.Stats() != before || len(before.Targets) != 2 || before.Targets[1].TargetName != "b" {
		t.Fatalf("before the run: a new view on every call, or not both targets")
	}
	if _, err := r.Run(t.Context(), engine.SnapshotMeta{}); err != nil {
		t.Fatal(err)
	}
	after := r.Stats()
	if after == before || !after.Done || !after.Targets[1].Done || after.Targets[0].Total.Completed != after.Total.Completed {
		t.Errorf("after the run: the view did not follow the targets' final ones")
	}
	if r.Stats() != after {
		t.Errorf("after the run: a new view on every call")
	}
}
