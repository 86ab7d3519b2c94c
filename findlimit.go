package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/cliflag"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
	"github.com/rpcstress/rpcstress/tui/report"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// findLimitFlags are the flags of `rpcstress find-limit`: the SLO and the strategy, overriding
// the profile's [search], and the run flags that make sense for a search.
type findLimitFlags struct {
	headless, inline, exitOnEnd, demo, noBurst bool
	out, url                                   string
	connections, fps                           int
	timeout                                    time.Duration

	p99, latency                      string
	maxLimited, maxFailed, minSuccess string
	start, maxRate, precision         string
	probe, settle, budget             time.Duration
}

func newFindLimitFlags() (*flag.FlagSet, *findLimitFlags) {
	f := &findLimitFlags{}
	fs := flag.NewFlagSet("rpcstress find-limit", flag.ContinueOnError)
	fs.StringVar(&f.p99, "p99", "", "SLO: the p99 latency bound, a `duration` such as 50ms (latency of all answers, from the intended send)")
	fs.StringVar(&f.latency, "latency", "", "SLO: another percentile's bound, `pN=D` such as p95=50ms (p50 p75 p90 p95 p99 p999)")
	fs.StringVar(&f.maxLimited, "max-limited", "", "SLO: at most this `share` rate-limited, e.g. 1% (default 1%)")
	fs.StringVar(&f.maxFailed, "max-failed", "", "SLO: at most this `share` failed, e.g. 0.1% (default 0.1%)")
	fs.StringVar(&f.minSuccess, "min-success", "", "SLO: at least this `share` successful, e.g. 99%")
	fs.StringVar(&f.start, "start", "", "first `rate` probed; the search doubles from it (default 100/s)")
	fs.StringVar(&f.maxRate, "max-rate", "", "highest `rate` the search may probe (default 50000/s)")
	fs.StringVar(&f.precision, "precision", "", "stop when (first bad − last good)/last good is at most this `share` (default 5%)")
	cliflag.DurationVar(fs, &f.probe, "probe", 0, "each probe's measured window (default 10s)")
	cliflag.DurationVar(fs, &f.settle, "settle", 0, "time at each rate before measuring, not counted (default 2s)")
	cliflag.DurationVar(fs, &f.budget, "budget", 0, "the whole search at most, burst probe included (default 5m)")
	fs.BoolVar(&f.noBurst, "no-burst", false, "skip the limiter's burst probe (the limiter is inferred from the sustained probes alone)")
	fs.BoolVar(&f.headless, "headless", false, "print one line per probe instead of the dashboard (the default when output is not a terminal)")
	fs.BoolVar(&f.inline, "inline", false, "draw the dashboard without the alternate screen")
	fs.BoolVar(&f.exitOnEnd, "exit-on-end", false, "leave the dashboard as soon as the search ends")
	fs.BoolVar(&f.demo, "demo", false, "search the embedded mock node on 127.0.0.1 (default profile: the bundled demo, limited at 1000/s burst 60)")
	fs.StringVar(&f.out, "out", "", "write the snapshot to this `file` (default runs/<profile>-findlimit-<UTC time>.json)")
	fs.StringVar(&f.url, "url", "", "target `URL`, replacing the profile's")
	fs.IntVar(&f.connections, "connections", 0, "at most `N` connections, so N requests in flight")
	cliflag.DurationVar(fs, &f.timeout, "timeout", 0, "per-request timeout")
	fs.IntVar(&f.fps, "fps", 10, "live updates per second")
	return fs, f
}

// searchConfig lays the flags over the profile's [search] (or the defaults). Every error names
// its flag.
func (f *findLimitFlags) searchConfig(base search.Config, set map[string]bool) (search.Config, error) {
	c := base
	var errs []error
	rate := func(name, v string, dst *engine.Rate) {
		if v == "" {
			return
		}
		r, err := engine.ParseRate(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", name, err))
			return
		}
		*dst = r
	}
	share := func(name, v string, dst *float64) {
		if v == "" {
			return
		}
		p, err := search.ParsePercent(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("--%s: %w", name, err))
			return
		}
		*dst = p
	}
	rate("start", f.start, &c.Start)
	rate("max-rate", f.maxRate, &c.Max)
	share("precision", f.precision, &c.PrecisionPct)
	share("max-limited", f.maxLimited, &c.SLO.MaxLimitedPct)
	share("max-failed", f.maxFailed, &c.SLO.MaxFailedPct)
	share("min-success", f.minSuccess, &c.SLO.MinSuccessPct)
	for _, d := range []struct {
		name string
		v    time.Duration
		dst  *time.Duration
	}{{"probe", f.probe, &c.Probe}, {"settle", f.settle, &c.Settle}, {"budget", f.budget, &c.Budget}} {
		switch {
		case !set[d.name]:
		case d.v < 0 || (d.v == 0 && d.name != "settle"):
			errs = append(errs, fmt.Errorf("--%s %s: must be positive", d.name, d.v))
		default:
			*d.dst = d.v
		}
	}
	switch {
	case f.p99 != "" && f.latency != "":
		errs = append(errs, errors.New("--p99 and --latency: give one latency bound"))
	case f.p99 != "":
		d, err := time.ParseDuration(f.p99)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("--p99 %q: write a positive duration, e.g. --p99 50ms", f.p99))
		} else {
			c.SLO.Percentile, c.SLO.Latency = 99, d
		}
	case f.latency != "":
		p, d, err := search.ParseLatencyClause(f.latency)
		if err != nil {
			errs = append(errs, fmt.Errorf("--latency %w", err))
		} else {
			c.SLO.Percentile, c.SLO.Latency = p, d
		}
	}
	c.NoBurstProbe = f.noBurst
	if len(errs) == 0 {
		if err := c.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return c, errors.Join(errs...)
}

// findLimit is `rpcstress find-limit PROFILE.toml`: search the highest rate that meets the SLO.
func (c *cli) findLimit(ctx context.Context, args []string) int {
	fs, f := newFindLimitFlags()
	pos, code, done := c.parseFlags("find-limit", fs, args)
	if done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case len(pos) > 1:
		return c.fail(exitUsage, fmt.Errorf("one profile at a time: got %q", pos))
	case len(pos) == 0 && !f.demo:
		return c.fail(exitUsage, errors.New("no profile given: run `rpcstress find-limit profiles/getBalance.toml`, or try `rpcstress find-limit --demo`"))
	case f.fps < 1 || f.fps > 60:
		return c.fail(exitUsage, fmt.Errorf("--fps %d: use 1 to 60", f.fps))
	case f.connections < 0 || set["connections"] && f.connections == 0:
		return c.fail(exitUsage, fmt.Errorf("--connections %d: must be at least 1", f.connections))
	case set["timeout"] && profiles.CheckTimeout(f.timeout) != nil:
		return c.fail(exitUsage, fmt.Errorf("--timeout %s: %w", f.timeout, profiles.CheckTimeout(f.timeout)))
	case f.url != "" && !strings.Contains(f.url, "://"):
		return c.fail(exitUsage, fmt.Errorf("--url %q: write the scheme too, e.g. http://%s", f.url, f.url))
	}
	var p *profiles.Profile
	var err error
	if len(pos) == 1 {
		p, err = whileWatching(c, "loading "+pos[0]+": nothing was sent", func() (*profiles.Profile, error) { return profiles.Load(pos[0], c.getenv) })
	} else {
		p, err = profiles.LoadBundled("demo.toml", c.getenv)
	}
	if err != nil {
		return c.failInput(err)
	}
	if p.Config.Mode == engine.ModeClosed {
		return c.fail(exitUsage, fmt.Errorf("%s: mode = \"closed\" has no rate to search: find-limit sends open loop (remove mode or set it to \"open\")", p.Path))
	}
	cfg, err := f.searchConfig(p.Search, set)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	o := profiles.Overrides{URL: f.url, Connections: f.connections, Timeout: f.timeout}
	if f.demo {
		n, addr, err := mocknode.Start(ctx, "127.0.0.1:0", demoNodeConfig(p.Demo))
		if err != nil {
			return c.fail(exitRunFailed, fmt.Errorf("starting the demo node: %w", err))
		}
		defer n.Close()
		if o.URL == "" {
			o.URL = "http://" + addr + "/"
		}
		_ = textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("demo: mock node on http://%s (%s)", addr, n.Config()), c.textWidth())
	}
	if err := p.Apply(o); err != nil {
		return c.fail(exitUsage, err)
	}
	return c.runSearch(ctx, p, cfg, f)
}

// runSearch runs the search with the dashboard or the lines, then writes the snapshot.
func (c *cli) runSearch(ctx context.Context, p *profiles.Profile, cfg search.Config, f *findLimitFlags) int {
	profileJSON, err := json.Marshal(p.Redacted())
	if err != nil {
		return c.fail(exitRunFailed, fmt.Errorf("encoding the profile for the snapshot: %w", err))
	}
	host, _ := os.Hostname()
	meta := engine.SnapshotMeta{Tool: engine.ToolInfo{Name: "rpcstress", Version: version()}, Host: host, Profile: profileJSON}
	prober := &search.EngineProber{Config: p.Config, Options: engine.RunOptions{PublishEvery: time.Second / time.Duration(f.fps)}, Meta: meta}
	s, err := search.New(cfg, prober, nil)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	// Checked before the first probe: a bad --out must not cost a search.
	out, err := newRunOutput(f.out, findLimitPath(p.Name, time.Now()))
	if err != nil {
		return c.fail(exitUsage, err)
	}

	var mu sync.Mutex
	var caught caughtSignal
	var endUI func(syscall.Signal) // set while the dashboard runs
	stopSignals := c.watchSignals(func(sig syscall.Signal) {
		s.Stop() // a second one also leaves the cut probe's drain
		mu.Lock()
		end := endUI
		mu.Unlock()
		if end != nil {
			end(sig) // nobody will press a key: the dashboard must not wait for one
		}
	}, &caught, nil)
	defer stopSignals()

	var outcome *search.Outcome
	var userStopped bool
	if !f.headless && c.onTerminal() {
		setEndUI := func(end func(syscall.Signal)) {
			mu.Lock()
			endUI = end
			mu.Unlock()
		}
		outcome, userStopped, err = c.searchDashboard(ctx, s, p, f, out.target.Path, setEndUI)
	} else {
		outcome, err = c.searchHeadless(ctx, s, p)
	}
	sig := caught.get()
	if outcome == nil {
		return c.fail(exitRunFailed, err)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "rpcstress: %s\n", safetext.Line(err.Error()))
	}
	reason := engine.EndCompleted
	switch {
	case sig != 0:
		reason = stopReason(sig)
	case userStopped:
		reason = "quit"
	}
	snap, serr := outcome.Snapshot(meta, p.Config.DisplayURL, reason)
	if serr == nil {
		serr = out.final(ctx, snap)
	}
	if serr != nil {
		return c.fail(exitRunFailed, fmt.Errorf("saving the search: %w", serr))
	}
	fmt.Fprintf(c.stdout, "snapshot: %s\n", safetext.Line(out.target.Path))
	switch {
	case sig != 0:
		return exitSignalsBase + int(sig)
	case err != nil:
		return exitRunFailed
	}
	return exitOK
}

// searchHeadless prints one line per probe and the answer block.
func (c *cli) searchHeadless(ctx context.Context, s *search.Searcher, p *profiles.Profile) (*search.Outcome, error) {
	lines := tui.NewSearchLinePrinter(c.stdout, c.textWidth())
	lines.Header(p.Name, p.Config.DisplayURL, s.Progress())
	stop := every(200*time.Millisecond, func() { lines.Update(s.Progress()) })
	outcome, err := s.Run(ctx)
	stop()
	if outcome != nil {
		lines.Final(&outcome.Result)
	}
	return outcome, err
}

// searchDashboard shows the search live; q stops it and keeps the best answer so far. It
// reports whether the user stopped it.
func (c *cli) searchDashboard(ctx context.Context, s *search.Searcher, p *profiles.Profile, f *findLimitFlags, out string, setEndUI func(func(syscall.Signal))) (*search.Outcome, bool, error) {
	var stopped sync.Once
	userStopped := false
	model := tui.NewSearchDashboard(tui.SearchDashboardOptions{
		Name: p.Name, Target: p.Config.DisplayURL,
		Progress: s.Progress, Live: s.LiveStats,
		Stop: func() { stopped.Do(func() { userStopped = true; s.Stop() }) },
		FPS:  f.fps, Inline: f.inline, ExitOnEnd: f.exitOnEnd,
	})
	searchDone := make(chan struct{})
	prog := tea.NewProgram(model, tea.WithoutSignalHandler(), tea.WithOutput(c.stdout))
	// A signal stops the search (watchSearchSignals) and ends the dashboard: at once on SIGHUP
	// (the terminal is gone, nothing to restore), after the search otherwise.
	setEndUI(func(sig syscall.Signal) {
		if sig == syscall.SIGHUP {
			prog.Kill()
			return
		}
		go func() { <-searchDone; prog.Quit() }()
	})
	defer setEndUI(nil)
	type result struct {
		o   *search.Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		o, err := s.Run(ctx)
		close(searchDone)
		done <- result{o, err}
		prog.Send(tui.SearchDoneMsg{Path: out, Err: err})
	}()
	_, uiErr := prog.Run()
	// The UI may end first: the search still stops and its answer is kept. After a second q
	// (the first one stopped it already), the stop again leaves the cut probe's drain at once.
	again := true
	stopped.Do(func() { again = false; userStopped = true; s.Stop() })
	if again {
		s.Stop()
	}
	res := <-done
	if uiErr != nil {
		fmt.Fprintf(c.stderr, "rpcstress: the dashboard ended: %s (the search is still saved)\n", safetext.Line(uiErr.Error()))
	}
	if res.o != nil {
		if err := report.WriteSearch(c.stdout, &res.o.Result, c.textWidth()); err != nil {
			fmt.Fprintf(c.stderr, "rpcstress: writing the answer: %s\n", safetext.Line(err.Error()))
		}
	}
	return res.o, userStopped && res.o != nil && res.o.Result.EndReason == search.EndStopped, res.err
}

// findLimitPath is runs/<profile>-findlimit-<UTC time>.json.
func findLimitPath(name string, start time.Time) string {
	p := defaultSnapshotPath(name, start)
	base := filepath.Base(p)
	stamp := start.UTC().Format("20060102T150405Z")
	return filepath.Join(filepath.Dir(p), base[:len(base)-len(stamp)-len(".json")]+"findlimit-"+stamp+".json")
}
