package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
	"github.com/rpcstress/rpcstress/tui/report"
)

// searchResult is how a search ended: its outcome (nil if it failed before one), the signal
// that stopped it (0: none), whether q stopped it, and its error.
type searchResult struct {
	outcome     *search.Outcome
	sig         syscall.Signal
	userStopped bool
	err         error
}

// findLimit is `rpcstress find-limit PROFILE.toml`: search the highest rate that meets the SLO.
func (c *cli) findLimit(ctx context.Context, f *findLimitFlags, pos []string) int {
	switch {
	case len(pos) > 1:
		return c.fail(exitUsage, fmt.Errorf("one profile at a time: got %q", pos))
	case len(pos) == 0 && !f.demo:
		return c.fail(exitUsage, errors.New("no profile given: run `rpcstress find-limit profiles/getBalance.toml`, or try `rpcstress find-limit --demo`"))
	}
	o, err := f.overrides()
	if err != nil {
		return c.fail(exitUsage, err)
	}
	p, err := c.loadProfile(pos, f.data)
	if err != nil {
		return c.failInput(err)
	}
	if err := oneNode(p, o); err != nil {
		return c.fail(exitUsage, err)
	}
	if p.Config.Mode == engine.ModeClosed {
		return c.fail(exitUsage, fmt.Errorf("%s: mode = \"closed\" has no rate to search: find-limit sends open loop (remove mode or set it to \"open\")", p.Path))
	}
	cfg, err := f.searchConfig(p.Search)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	nodes, code, err := c.applyOverrides(ctx, f.demo, p, o)
	if err != nil {
		return c.fail(code, err)
	}
	defer nodes.Close()
	if code, ok := c.readHead(ctx, p.Config); !ok {
		return code
	}
	return c.runSearch(ctx, p, cfg, f)
}

// runSearch runs the search with the dashboard or the lines, then writes the snapshot.
func (c *cli) runSearch(ctx context.Context, p *profiles.Profile, cfg search.Config, f *findLimitFlags) int {
	meta, err := snapshotMeta(p)
	if err != nil {
		return c.fail(exitRunFailed, err)
	}
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
	var res searchResult
	if !f.headless && c.onTerminal() {
		res = c.searchDashboard(ctx, s, p, f, out.target.Path)
	} else {
		res = c.searchHeadless(ctx, s, p)
	}
	if res.outcome == nil {
		return c.fail(exitRunFailed, res.err)
	}
	if res.err != nil {
		fmt.Fprintf(c.stderr, "rpcstress: %s\n", safetext.Line(res.err.Error()))
	}
	reason := engine.EndCompleted
	switch {
	case res.sig != 0:
		reason = stopReason(res.sig)
	case res.userStopped:
		reason = "quit"
	}
	snap, err := res.outcome.Snapshot(meta, p.Config.DisplayURL, reason)
	if err == nil {
		err = out.final(ctx, snap)
	}
	if err != nil {
		return c.fail(exitRunFailed, fmt.Errorf("saving the search: %w", err))
	}
	fmt.Fprintf(c.stdout, "snapshot: %s\n", safetext.Line(out.target.Path))
	switch {
	case res.sig != 0:
		return exitSignalsBase + int(res.sig)
	case res.err != nil:
		return exitRunFailed
	}
	return exitOK
}

// searchHeadless prints one line per probe and the answer block. A signal stops the search; a
// second one also leaves the cut probe's drain.
func (c *cli) searchHeadless(ctx context.Context, s *search.Searcher, p *profiles.Profile) searchResult {
	lines := tui.NewSearchLinePrinter(c.stdout, c.textWidth())
	lines.Header(p.Name, p.Config.DisplayURL, s.Progress())
	var caught caughtSignal
	stopSignals := c.watchSignals(func(syscall.Signal) { s.Stop() }, &caught, nil)
	defer stopSignals()
	stop := every(200*time.Millisecond, func() { lines.Update(s.Progress()) })
	outcome, err := s.Run(ctx)
	stop()
	if outcome != nil {
		lines.Final(&outcome.Result)
	}
	return searchResult{outcome: outcome, sig: caught.get(), err: err}
}

// searchDashboard shows the search live; q stops it and keeps the best answer so far.
func (c *cli) searchDashboard(ctx context.Context, s *search.Searcher, p *profiles.Profile, f *findLimitFlags, out string) searchResult {
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
	// A signal stops the search (a second one also leaves the cut probe's drain) and ends the
	// dashboard, as nobody will press a key: at once on SIGHUP (the terminal is gone, nothing
	// to restore), after the search otherwise.
	var caught caughtSignal
	stopSignals := c.watchSignals(func(sig syscall.Signal) {
		s.Stop()
		if sig == syscall.SIGHUP {
			prog.Kill()
			return
		}
		go func() { <-searchDone; prog.Quit() }()
	}, &caught, nil)
	defer stopSignals()
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
	return searchResult{
		outcome: res.o, sig: caught.get(), err: res.err,
		userStopped: userStopped && res.o != nil && res.o.Result.EndReason == search.EndStopped,
	}
}

// findLimitPath is runs/<profile>-findlimit-<UTC time>.json.
func findLimitPath(name string, start time.Time) string {
	p := defaultSnapshotPath(name, start)
	base := filepath.Base(p)
	stamp := start.UTC().Format("20060102T150405Z")
	return filepath.Join(filepath.Dir(p), base[:len(base)-len(stamp)-len(".json")]+"findlimit-"+stamp+".json")
}

// oneNode refuses targets side by side: a search probes one node's limit, a rate at a time.
func oneNode(p *profiles.Profile, o profiles.Overrides) error {
	switch {
	case len(o.Targets) > 0:
		return fmt.Errorf("find-limit searches one node's limit, and --url NAME=URL names %d: give one --url URL (search each node in a run of its own)", len(o.Targets))
	case len(p.Config.Targets) > 0:
		return fmt.Errorf("%s: find-limit searches one node's limit, and the profile sends to %d targets side by side: search each node with a profile of one url", p.Path, len(p.Config.Targets))
	}
	return nil
}
