package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/procfs"

	"github.com/rpcstress/rpcstress/engine"
)

// Config is what to watch.
type Config struct {
	// Procs are processes on this machine.
	Procs []Target
	// Metrics is a node's Prometheus endpoint; nil for none.
	Metrics *Metrics
	// ProcRoot is where /proc is mounted; "" is /proc (tests give a fixture tree).
	ProcRoot string
}

// Metrics is a node's Prometheus endpoint and the series to show from it.
type Metrics struct {
	URL     string // as given
	Display string // as shown: no userinfo, no query
	Series  []Selector
	// Where says where the endpoint and series were written, for the warnings of New.
	Where string
}

// Enabled reports whether the config watches anything.
func (c *Config) Enabled() bool { return len(c.Procs) > 0 || c.Metrics != nil }

// ringSize is how many seconds of readings a Watcher keeps: the aggregator files a second
// about 1.5 s after it began (engine's rowGrace), well within them.
const ringSize = 8

// minReading is the shortest part of a second read as the run ends (see Run).
const minReading = 500 * time.Millisecond

// scrapeWait is how long a reading waits for the scrape started with it, so that a node that
// answers quickly has its series in the same second; a slower one's land in the next.
const scrapeWait = 300 * time.Millisecond

// Watcher reads the watched once a second; it is an engine.Watcher. Make it with New.
type Watcher struct {
	procs  []*watched
	self   *procReader
	scrape *scraper // nil: no endpoint
	cores  int

	ring [ringSize]atomic.Pointer[second]
	info atomic.Pointer[engine.WatchInfo]

	mu   sync.Mutex // guards the procs' descriptions (a process exits while Info reads)
	desc []engine.WatchedProc
}

// watched is one process and its reader.
type watched struct {
	r     *procReader
	label string
}

// second is the reading of one second of the run.
type second struct {
	t   int
	row *engine.WatchRow
}

// New finds what cfg names and reads it once, before the run: a process that is not there (or
// a name that fits several) is an error naming where it was written; what is only worth
// knowing (another user's process, an endpoint that does not answer yet, a series it does not
// have) comes back as warnings, one line each.
func New(ctx context.Context, cfg Config) (w *Watcher, warnings []string, err error) {
	pfs, err := newFS(cfg.ProcRoot)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	w = &Watcher{cores: runtime.GOMAXPROCS(0)}
	var errs []error
	labels := map[string]int{}
	pids := map[int]Target{}
	for _, t := range cfg.Procs {
		d, r, note, err := open(pfs, t, now)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", t.Where, t.Spec, err))
			continue
		}
		if prev, dup := pids[d.PID]; dup {
			errs = append(errs, fmt.Errorf("%s %s: pid %d is watched already (%s %s): name each process once", t.Where, t.Spec, d.PID, prev.Where, prev.Spec))
			continue
		}
		pids[d.PID] = t
		labels[d.Label]++
		if n := labels[d.Label]; n > 1 {
			d.Label += "#" + strconv.Itoa(n)
		}
		if note != "" {
			d.Note = note
			warnings = append(warnings, fmt.Sprintf("%s %s (pid %d): %s", t.Where, t.Spec, d.PID, note))
		}
		w.procs = append(w.procs, &watched{r: r, label: d.Label})
		w.desc = append(w.desc, d)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	self, err := pfs.Proc(os.Getpid())
	if err == nil {
		w.self, _, err = newProcReader(self, os.Getpid(), now)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading rpcstress's own process: %w", err)
	}
	if m := cfg.Metrics; m != nil {
		sels := m.Series
		if len(sels) == 0 {
			sels = defaultSelectors()
		}
		w.scrape = newScraper(m.URL, m.Display, sels)
		warnings = append(warnings, w.firstScrape(ctx, m)...)
	}
	w.publishInfo()
	return w, warnings, nil
}

// newFS opens /proc, or the tree tests give.
func newFS(root string) (procfs.FS, error) {
	if root == "" {
		root = procfs.DefaultMountPoint
	}
	pfs, err := procfs.NewFS(root)
	if err != nil {
		return procfs.FS{}, fmt.Errorf("watching processes needs %s (Linux): %w", root, err)
	}
	return pfs, nil
}

// open resolves a target and reads it once.
func open(pfs procfs.FS, t Target, now time.Time) (engine.WatchedProc, *procReader, string, error) {
	found, err := resolve(pfs, t, os.Getpid())
	if err != nil {
		return engine.WatchedProc{}, nil, "", err
	}
	p, err := pfs.Proc(found.pid)
	if err != nil {
		return engine.WatchedProc{}, nil, "", readErr(err)
	}
	r, note, err := newProcReader(p, found.pid, now)
	if err != nil {
		return engine.WatchedProc{}, nil, "", fmt.Errorf("pid %d: %w", found.pid, err)
	}
	d := engine.WatchedProc{Spec: t.Spec, Label: found.name, PID: found.pid, Command: found.command}
	return d, r, note, nil
}

// firstScrape reads the endpoint before the run, so that a wrong URL or a series it does not
// have is said before anything is sent. Neither stops the run: a node may expose a series
// only once it has work, and a failing scrape is counted, never fatal. Without series named,
// the defaults the endpoint has are kept.
func (w *Watcher) firstScrape(ctx context.Context, m *Metrics) []string {
	have, err := w.scrape.scrape(ctx, time.Now())
	if err != nil {
		return []string{fmt.Sprintf("%s %s: %s: the run goes on, and counts the scrapes that fail", m.Where, m.Display, err)}
	}
	if len(m.Series) == 0 {
		if w.scrape.keep() == 0 {
			return []string{fmt.Sprintf("%s %s has none of the series shown by default (%s): name those to show in the profile, [node_metrics] series = [\"…\"]",
				m.Where, m.Display, strings.Join(DefaultSeries(), ", "))}
		}
		return nil
	}
	var out []string
	slices.Sort(have)
	have = slices.Compact(have)
	for i, sel := range m.Series {
		if w.scrape.matched[i] > 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s has no series %s%s", m.Where, m.Display, sel.Text, didYouMean(sel.Name, have)))
	}
	return out
}

// DefaultSeries are the series shown when none are named, those of them the endpoint has: a
// process's CPU and memory as most Prometheus clients export them, and go-ethereum's own
// (its CPU load, its head, the calls it served per second).
func DefaultSeries() []string {
	return []string{"process_cpu_seconds_total", "process_resident_memory_bytes",
		"system_cpu_procload", "chain_head_block", "rate(rpc_requests)"}
}

func defaultSelectors() []Selector {
	var out []Selector
	for _, text := range DefaultSeries() {
		if sel, err := ParseSelector(text); err == nil { // they all do: TestDefaultSeries
			out = append(out, sel)
		}
	}
	return out
}

// Run reads once a second on the run's seconds until ctx ends, then once more for the part of
// a second the run ended in (engine.Watcher).
func (w *Watcher) Run(ctx context.Context, start time.Time, event func(kind, detail string)) {
	w.read(ctx, -1, start, event, false) // the base of the first second's rates
	last := -1
	for {
		next := time.Duration(last+2) * time.Second
		timer := time.NewTimer(time.Until(start.Add(next)))
		select {
		case <-ctx.Done():
			timer.Stop()
			// The part of a second the run ends in gets a reading when it is long enough to
			// mean something: over a sliver, CPU time counted in ticks of 10 ms reads as
			// anything from 0 to several cores.
			since := time.Since(start)
			t := int(since / time.Second)
			switch {
			case t-1 > last:
				// A whole second ended unread: its timer and the run's end came together
				// (on a busy machine), and select took the end. It gets the reading, over
				// the time since the last one; the sliver after it is folded in.
				w.read(ctx, t-1, start, event, false)
			case t > last && since-time.Duration(t)*time.Second >= minReading:
				w.read(ctx, t, start, event, false) // the last values: no scrape as the run ends
			}
			if w.scrape != nil {
				w.scrape.running.Wait() // cut short by ctx: it ends at once
			}
			return
		case <-timer.C:
		}
		// The second just ended; a reading late by more than a second skips what it missed
		// (its rates cover the whole time since the last one).
		last = int(time.Since(start)/time.Second) - 1
		w.read(ctx, last, start, event, true)
	}
}

// read takes the reading of second t (t < 0: only the base of the next one's rates), with a
// fresh scrape of the endpoint when scrape is set.
func (w *Watcher) read(ctx context.Context, t int, start time.Time, event func(kind, detail string), scrape bool) {
	var scraped <-chan struct{}
	if w.scrape != nil && scrape {
		scraped = w.scrape.start(ctx)
	}
	now := time.Now()
	row := &engine.WatchRow{}
	for i, p := range w.procs {
		use, err := p.r.read(now)
		if errors.Is(err, errGone) {
			w.exited(i, now.Sub(start), event)
		}
		row.Procs = append(row.Procs, use)
	}
	row.Self, _ = w.self.read(now)
	if scraped != nil {
		timer := time.NewTimer(scrapeWait)
		select {
		case <-scraped:
		case <-timer.C:
		}
		timer.Stop()
	}
	if w.scrape != nil {
		row.Series, row.MetricsStale = w.scrape.last()
	}
	if t >= 0 {
		w.ring[t%ringSize].Store(&second{t: t, row: row})
	}
	w.publishInfo()
}

// exited records, once, that watched process i is gone.
func (w *Watcher) exited(i int, at time.Duration, event func(kind, detail string)) {
	w.mu.Lock()
	d := &w.desc[i]
	first := d.ExitedAt == nil
	if first {
		s := at.Round(time.Millisecond).Seconds()
		d.ExitedAt = &s
	}
	w.mu.Unlock()
	if first && event != nil {
		event("watch", fmt.Sprintf("%s (pid %d) exited: its numbers stop here", d.Label, d.PID))
	}
}

// publishInfo makes a fresh Info for the views.
func (w *Watcher) publishInfo() {
	info := &engine.WatchInfo{Cores: w.cores}
	w.mu.Lock()
	info.Procs = append([]engine.WatchedProc(nil), w.desc...)
	w.mu.Unlock()
	if w.scrape != nil {
		info.Metrics = w.scrape.metrics()
	}
	w.info.Store(info)
}

// At is the reading of second t, or nil (engine.Watcher).
func (w *Watcher) At(t int) *engine.WatchRow {
	if t < 0 {
		return nil
	}
	if s := w.ring[t%ringSize].Load(); s != nil && s.t == t {
		return s.row
	}
	return nil
}

// Info says what is watched, as of the last reading (engine.Watcher).
func (w *Watcher) Info() *engine.WatchInfo { return w.info.Load() }
