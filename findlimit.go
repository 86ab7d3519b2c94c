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

// findLimit is `rpcstress find-limit PROFILE.toml`: search the highest rate that meets the SLO.
func (c *cli) findLimit(ctx context.Context, args []string) int {
	fs, f := newFindLimitFlags()
	pos, code, done := c.parseFlags("find-limit", fs, args)
	if done {
		return code
	}
	f.noteSet(fs)
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
	p, err := c.loadProfile(pos)
	if err != nil {
		return c.failInput(err)
	}
	if p.Config.Mode == engine.ModeClosed {
		return c.fail(exitUsage, fmt.Errorf("%s: mode = \"closed\" has no rate to search: find-limit sends open loop (remove mode or set it to \"open\")", p.Path))
	}
	cfg, err := f.searchConfig(p.Search)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if f.demo {
		n, err := c.startDemo(ctx, p, &o)
		if err != nil {
			return c.fail(exitRunFailed, err)
		}
		defer n.Close()
	}
	if err := p.Apply(o); err != nil {
		return c.fail(exitUsage, err)
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
