package watch

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// events records what a Watcher tells the run.
type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) add(kind, detail string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, kind+": "+detail)
}

// TestWatcherRun runs a Watcher for a little over two seconds of a "run": a process spinning
// on a CPU, and one that exits after the first second, under the same name as another (labels
// stay apart), with a metrics endpoint. Each second has its reading; the one that exited is an
// event, once, and has no numbers after; the run's last part of a second is read as it ends.
func TestWatcherRun(t *testing.T) {
	burner := startHelper(t, "burn")
	quitter := startNamed(t, "rpcswatch-twin", "1.4")
	twin := startNamed(t, "rpcswatch-twin", "60")
	_, url := startExposition(t, "# TYPE chain_head_block gauge\nchain_head_block 5\n")
	cfg := Config{
		Procs: []Target{
			{Spec: strconv.Itoa(burner.Process.Pid), Where: "--watch-pid"},
			{Spec: strconv.Itoa(quitter.Process.Pid), Where: "--watch-pid"},
			{Spec: strconv.Itoa(twin.Process.Pid), Where: "p.toml:3: watch[1]"},
		},
		Metrics: &Metrics{URL: url, Display: "node", Series: selectors(t, "chain_head_block"), Where: "--node-metrics"},
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, warnings, err := New(ctx, cfg)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("New: %v, %q", err, warnings)
	}
	var ev events
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx, start, ev.add)
	}()
	time.Sleep(2600 * time.Millisecond)
	cancel()
	<-done

	info := w.Info()
	if got := []string{info.Procs[0].Label, info.Procs[1].Label, info.Procs[2].Label}; got[1] != "rpcswatch-twin" || got[2] != "rpcswatch-twin#2" {
		t.Errorf("labels %q", got)
	}
	if info.Procs[1].ExitedAt == nil || *info.Procs[1].ExitedAt < 1 || *info.Procs[1].ExitedAt > 2.1 || info.Procs[2].ExitedAt != nil {
		t.Errorf("exited at %v and %v", info.Procs[1].ExitedAt, info.Procs[2].ExitedAt)
	}
	if info.Metrics == nil || info.Metrics.Scrapes < 3 || info.Metrics.Failures != 0 {
		t.Errorf("metrics %+v", info.Metrics)
	}
	if len(ev.list) != 1 || !strings.Contains(ev.list[0], "rpcswatch-twin (pid "+strconv.Itoa(quitter.Process.Pid)+") exited") {
		t.Errorf("events %q", ev.list)
	}
	for sec := range 3 {
		r := w.At(sec)
		if r == nil {
			t.Fatalf("second %d: no reading", sec)
		}
		if r.Procs[0] == nil || r.Procs[0].CPU < 20 {
			t.Errorf("second %d: the spinning process at %+v", sec, r.Procs[0])
		}
		// It exits during second 1: what it used then, /proc no longer shows.
		if exited := sec >= 1; (r.Procs[1] == nil) != exited {
			t.Errorf("second %d: the exited one reads %+v", sec, r.Procs[1])
		}
		if r.Procs[2] == nil || r.Self == nil || r.Self.RSS == 0 {
			t.Errorf("second %d: %+v %+v", sec, r.Procs[2], r.Self)
		}
		if len(r.Series) != 1 || r.Series[0] == nil || *r.Series[0] != 5 {
			t.Errorf("second %d: series %v", sec, r.Series)
		}
	}
	if w.At(3) != nil || w.At(-1) != nil {
		t.Error("a reading of a second that was not read")
	}
}

// TestWatcherSliver: a run that ends 0.2 s into a second has no reading of that sliver (CPU
// ticks of 10 ms over 0.2 s would read as anything); one that ends 0.6 s in has.
func TestWatcherSliver(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration
		read  bool
	}{{200 * time.Millisecond, false}, {600 * time.Millisecond, true}} {
		w, _, err := New(context.Background(), Config{Procs: []Target{{Spec: strconv.Itoa(os.Getpid()), Where: "--watch-pid"}}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), tc.after)
		w.Run(ctx, time.Now(), nil)
		cancel()
		if got := w.At(0) != nil; got != tc.read {
			t.Errorf("a run of %s: read %v, want %v", tc.after, got, tc.read)
		}
	}
}

// TestWatcherLastWholeSecond: a run that ends as a second ends (the second's timer and the
// run's end due together) still reads that second: here the run ended 50 ms past second 0, so
// second 0 ended unread, and the sliver after it is too short for a reading of its own. Before,
// select picked the run's end about half the time and second 0 had no reading (a real run lost
// its last whole second's reading of geth this way on a busy machine).
func TestWatcherLastWholeSecond(t *testing.T) {
	for range 20 {
		w, _, err := New(context.Background(), Config{Procs: []Target{{Spec: strconv.Itoa(os.Getpid()), Where: "--watch-pid"}}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		w.Run(ctx, time.Now().Add(-1050*time.Millisecond), nil)
		if w.At(0) == nil {
			t.Fatal("a run that ended 50 ms into its second second has no reading of its first")
		}
	}
}

// TestWatcherNewErrors: every process that is not there is named at once, where it was
// written; an endpoint that fails or lacks a series is a warning, and the run may go on.
func TestWatcherNewErrors(t *testing.T) {
	e, url := startExposition(t, "# TYPE chain_head_block gauge\nchain_head_block 5\n")
	_, warnings, err := New(context.Background(), Config{Procs: []Target{
		{Spec: "rpcswatch-nothing", Where: "p.toml:3: watch[1]"},
		{Spec: "999999999", Where: "--watch-pid"},
	}})
	for _, want := range []string{`p.toml:3: watch[1] rpcswatch-nothing: no process named "rpcswatch-nothing"`, "--watch-pid 999999999: no process has pid 999999999"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	if warnings != nil {
		t.Errorf("warnings %q", warnings)
	}
	// One process named twice (by its pid and by its name) is a mistake to say, not to repeat.
	sleeper := startNamed(t, "rpcswatch-dup")
	pid := strconv.Itoa(sleeper.Process.Pid)
	_, _, err = New(context.Background(), Config{Procs: []Target{{Spec: pid, Where: "--watch-pid"}, {Spec: "rpcswatch-dup", Where: "p.toml:2: watch[1]"}}})
	if want := "p.toml:2: watch[1] rpcswatch-dup: pid " + pid + " is watched already (--watch-pid " + pid + "): name each process once"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	e.mu.Lock()
	e.status = http.StatusNotFound
	e.mu.Unlock()
	w, warnings, err := New(context.Background(), Config{Metrics: &Metrics{URL: url, Display: "node/x", Series: selectors(t, "a"), Where: "--node-metrics"}})
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "--node-metrics node/x: HTTP 404") || !strings.Contains(warnings[0], "the run goes on") {
		t.Errorf("warnings %q, %v", warnings, err)
	}
	if w == nil || w.Info().Metrics.Failures != 1 {
		t.Errorf("the first scrape's failure is not counted")
	}
	e.set("# TYPE chain_head_block gauge\nchain_head_block 5\n")
	_, warnings, err = New(context.Background(), Config{Metrics: &Metrics{URL: url, Display: "node", Series: selectors(t, "chain_head_blok", "zzz"), Where: "node_metrics"}})
	if err != nil || len(warnings) != 2 || !strings.Contains(warnings[0], "node has no series chain_head_blok: did you mean chain_head_block?") ||
		!strings.Contains(warnings[1], "no series zzz (none of its 1 series has that name") {
		t.Errorf("warnings %q, %v", warnings, err)
	}
}

var _ engine.Watcher = (*Watcher)(nil)

// TestDefaultSeries: without series named, those of the defaults the endpoint has are shown
// (go-ethereum's here); an endpoint with none of them says how to name some.
func TestDefaultSeries(t *testing.T) {
	if got := len(defaultSelectors()); got != len(DefaultSeries()) {
		t.Fatalf("%d of %d default series parse", got, len(DefaultSeries()))
	}
	e, url := startExposition(t, "# TYPE chain_head_block gauge\nchain_head_block 5\n# TYPE rpc_requests gauge\nrpc_requests 10\n# TYPE other gauge\nother 1\n")
	w, warnings, err := New(context.Background(), Config{Metrics: &Metrics{URL: url, Display: "node", Where: "--node-metrics"}})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	var got []string
	for _, s := range w.Info().Metrics.Series {
		got = append(got, s.Selector+" "+s.Kind)
	}
	if strings.Join(got, ", ") != "chain_head_block gauge, rate(rpc_requests) counter" {
		t.Errorf("series shown: %q", got)
	}
	e.set("# TYPE other gauge\nother 1\n")
	_, warnings, err = New(context.Background(), Config{Metrics: &Metrics{URL: url, Display: "node", Where: "--node-metrics"}})
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "--node-metrics node has none of the series shown by default (process_cpu_seconds_total,") ||
		!strings.Contains(warnings[0], "series = [") {
		t.Errorf("%v %q", err, warnings)
	}
}
