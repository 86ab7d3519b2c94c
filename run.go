package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/thresholds"
	"github.com/rpcstress/rpcstress/internal/promexport"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
	"github.com/rpcstress/rpcstress/tui/report"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// run is the main job: load, run, print, save.
func (c *cli) run(ctx context.Context, f *runFlags, pos []string) int {
	switch {
	case len(pos) > 1:
		return c.fail(exitUsage, fmt.Errorf("one profile at a time: got %q", pos))
	case len(pos) == 1 && f.targets != "":
		return c.fail(exitUsage, fmt.Errorf("--targets %s and the profile %s: give one of them (a profile names a target file with targets = \"FILE\")", f.targets, pos[0]))
	case len(pos) == 0 && !f.demo && f.targets == "":
		c.usage(c.stderr)
		return c.fail(exitUsage, errors.New("no profile given: run `rpcstress profiles/getBalance.toml`, or try `rpcstress --demo`"))
	}
	o, err := f.overrides()
	if err != nil {
		return c.fail(exitUsage, err)
	}
	var p *profiles.Profile
	if f.targets != "" {
		p, err = c.loadTargets(f, o)
	} else {
		p, err = c.loadProfile(pos, f.data)
	}
	if err != nil {
		return c.failInput(err)
	}
	nodes, failCode, err := c.applyOverrides(ctx, f.demo, p, o)
	if err != nil {
		return c.fail(failCode, err)
	}
	defer nodes.Close()
	if len(p.Config.Plan.Stages) == 0 && p.HasSearch {
		return c.fail(exitUsage, fmt.Errorf("%s has a [search] but no [[stage]] or [ramp]: run `rpcstress find-limit %s`, or give a plan (--rate R --duration D)", p.Path, p.Path))
	}
	for _, w := range insecureWarnings(p.Config) {
		_ = textfmt.WriteParagraph(c.stdout, "", "  ", safetext.Line(w), c.textWidth())
	}
	if err := applyShard(p, f); err != nil {
		return c.fail(exitUsage, err)
	}
	metrics, err := c.startMetrics(f.metrics, p)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if metrics != nil {
		defer c.stopMetrics(ctx, metrics)
	}
	if code, ok := c.schedule(ctx, f); !ok {
		return code
	}
	code := c.execute(ctx, p, f, metrics)
	for _, n := range nodes {
		c.printNodeCount(n)
	}
	return code
}

// loadProfile loads the profile named on the command line, or the bundled demo when none is
// (--demo), its {{line}} files from data (--data) if given. A signal while it is read ends the
// program (whileWatching).
func (c *cli) loadProfile(pos []string, data string) (*profiles.Profile, error) {
	opts, err := dataOptions(data)
	if err != nil {
		return nil, err
	}
	if len(pos) == 0 {
		return profiles.LoadBundled("demo.toml", c.getenv, opts...)
	}
	return whileWatching(c, "loading "+pos[0]+": nothing was sent", func() (*profiles.Profile, error) { return profiles.Load(pos[0], c.getenv, opts...) })
}

// applyShard applies --shard.
func applyShard(p *profiles.Profile, f *runFlags) error {
	if f.shard != "" {
		i, n, err := parseShard(f.shard)
		if err != nil {
			return err
		}
		p.Config.Shard, p.Config.ShardCount = i, n
	}
	return nil
}

// schedule waits for --start-at; ok is false when the run must not start, with the exit code.
func (c *cli) schedule(ctx context.Context, f *runFlags) (code int, ok bool) {
	if f.startAt == "" {
		return 0, true
	}
	at, err := parseStartAt(f.startAt)
	if err != nil {
		return c.fail(exitUsage, err), false
	}
	return c.waitUntil(ctx, at)
}

// snapshotMeta is what every snapshot of this invocation says of where it came from: the tool,
// the host and the profile (secrets hidden).
func snapshotMeta(p *profiles.Profile) (engine.SnapshotMeta, error) {
	profileJSON, err := json.Marshal(p.Redacted())
	if err != nil {
		return engine.SnapshotMeta{}, fmt.Errorf("encoding the profile for the snapshot: %w", err)
	}
	host, _ := os.Hostname()
	return engine.SnapshotMeta{Tool: engine.ToolInfo{Name: "rpcstress", Version: version()}, Host: host, Profile: profileJSON}, nil
}

// execute runs a loaded profile and saves its snapshot, whatever ends it.
func (c *cli) execute(ctx context.Context, p *profiles.Profile, f *runFlags, metrics *promexport.Server) int {
	watcher, err := c.startWatch(ctx, p, &f.watch)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if code, ok := c.readHead(ctx, p.Config); !ok {
		return code
	}
	runner, err := engine.NewRunner(p.Config, engine.RunOptions{PublishEvery: time.Second / time.Duration(f.fps), Watch: watcher})
	if err != nil {
		return c.fail(exitRunFailed, err)
	}
	if metrics != nil {
		metrics.Collector().SetSource(runner.Stats)
	}
	// Where the numbers go is checked before anything is sent, not found wrong after the run.
	out, err := newRunOutput(f.out, defaultSnapshotPath(p.Name, runner.Start()))
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if note := out.note(); note != "" {
		fmt.Fprintf(c.stderr, "rpcstress: %s\n", safetext.Line(note)) // it names the path
	}
	meta, err := snapshotMeta(p)
	if err != nil {
		return c.fail(exitRunFailed, err)
	}

	prof, err := startGoProfiles(f.cpuProfile, f.memProfile)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	show := c.headless
	if !f.headless && c.onTerminal() {
		show = c.dashboard
	}
	snap, caught, err := show(ctx, runner, meta, p, out, f)
	// The profiles end with the run, before the report: the heap profile sees what the run
	// still holds (the runner and its snapshot are kept alive until it is written).
	if perr := prof.stop(ctx); perr != nil {
		fmt.Fprintf(c.stderr, "rpcstress: %s\n", safetext.Line(perr.Error()))
	}
	runtime.KeepAlive(runner)
	thresholdsFailed := snap != nil && err == nil && thresholds.Failed(snap.Thresholds) > 0
	if snap != nil {
		if werr := report.WriteReport(c.stdout, snap, c.textWidth()); werr != nil {
			fmt.Fprintf(c.stderr, "rpcstress: writing the report: %s\n", safetext.Line(werr.Error()))
		}
	}
	if err != nil {
		return c.fail(exitRunFailed, err)
	}
	fmt.Fprintf(c.stdout, "snapshot: %s\n", safetext.Line(out.target.Path))
	switch {
	case caught != 0:
		return exitSignalsBase + int(caught) // an interrupted run: its thresholds are only indicative
	case runner.SourceErr() != nil: // a bad target on standard input stopped the run there
		return c.fail(exitUsage, fmt.Errorf("%w\n(the run stopped at that target; what was sent before is saved)", runner.SourceErr()))
	case thresholdsFailed:
		return exitThresholds
	}
	return exitOK
}

// headless runs with one line per second: for non-terminals, --headless, CI and SSH scripts.
func (c *cli) headless(ctx context.Context, runner *engine.Runner, meta engine.SnapshotMeta, p *profiles.Profile, out *runOutput, f *runFlags) (*engine.Snapshot, syscall.Signal, error) {
	lines := tui.NewLinePrinter(c.stdout, c.textWidth())
	if len(p.Config.Targets) > 1 {
		lines.HeaderTargets(p.Name, p.Config.Targets, p.Config.Mode) // a line per target per second
	} else {
		lines.Header(p.Name, p.Config.DisplayURL, p.Config.Mode)
	}
	stopPrinting := c.printLive(runner, lines)
	var caught caughtSignal
	ctl := runner.Controller()
	stopSignals := c.watchSignals(func(s syscall.Signal) { ctl.Stop(stopReason(s)) }, &caught, nil)
	stopSaving := c.saveEvery(ctx, runner, meta, out, f.saveEvery)
	snap, err := runner.Run(ctx, meta)
	stopSaving()
	stopSignals()
	stopPrinting()
	lines.Update(runner.Stats())
	if err == nil {
		judge(p, snap)
		err = out.final(ctx, snap)
	}
	return snap, caught.get(), err
}

// judge evaluates the profile's [thresholds] on the finished run into its snapshot, before the
// snapshot is written: written once, as a device or a FIFO takes only one. The verdict is shown
// at the end of the report.
func judge(p *profiles.Profile, snap *engine.Snapshot) {
	if len(p.Thresholds) > 0 {
		snap.Thresholds = thresholds.Evaluate(p.Thresholds, snap)
	}
}

// printLive prints new timeline rows as the run goes; the returned func stops it.
func (c *cli) printLive(r *engine.Runner, lines *tui.LinePrinter) (stop func()) {
	return every(250*time.Millisecond, func() { lines.Update(r.Stats()) })
}

// saveEvery rewrites the snapshot file (end_reason "running") every interval until stopped; the
// returned func stops it and waits, so the final snapshot is never overwritten by a partial one.
func (c *cli) saveEvery(ctx context.Context, r *engine.Runner, meta engine.SnapshotMeta, out *runOutput, interval time.Duration) (stop func()) {
	if !out.target.Stored() {
		return func() {} // a device or a FIFO takes one snapshot, at the end (out.note)
	}
	// A failure is an event of the run, not a line on stderr: the dashboard owns the terminal
	// while it runs (a stray line would tear its screen), and an event reaches the dashboard's
	// events pane, the headless lines, the snapshot and the report alike. Said when saving
	// starts failing and when it works again, not every interval.
	failing := false
	note := func(err error) {
		switch {
		case err != nil && !failing:
			r.Controller().Mark("save", "periodic snapshot failed: "+err.Error())
		case err == nil && failing:
			r.Controller().Mark("save", "periodic snapshot saved again")
		}
		failing = err != nil
	}
	return every(interval, func() {
		snap, err := r.SnapshotNow(meta)
		if err == nil {
			err = out.periodic(ctx, snap) // "periodic snapshot PATH: …"
		}
		note(err)
		// A save is most of what a run allocates once it goes (its histograms exported, its
		// JSON): garbage that the next collection finds, after the heap has grown by it and
		// the pages it took stay with the process. Collecting now and handing them back keeps
		// a long run's resident set flat (bench/README, "Memory of a long run": at 20,000/s
		// it rose 34.8 → 37.5 MB over 240 s without this, 31.1 → 31.6 with it), for one
		// collection every save that costs a few milliseconds of a 5 MB heap.
		debug.FreeOSMemory()
	})
}

// waitUntil sleeps until at (--start-at); a signal meanwhile ends the program before any
// request (whileWatching: the one place besides the run's watcher that listens to them).
func (c *cli) waitUntil(ctx context.Context, at time.Time) (code int, ok bool) {
	d := time.Until(at)
	if d <= 0 {
		fmt.Fprintf(c.stderr, "rpcstress: --start-at %s is %s in the past: starting now\n", at.Format(time.RFC3339), (-d).Round(time.Millisecond))
		return 0, true
	}
	fmt.Fprintf(c.stdout, "waiting %s until %s to start\n", d.Round(time.Second), at.Format(time.RFC3339))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a signal leaves the sleep to its goroutine: this ends it
	_, err := whileWatching(c, "waiting to start: nothing was sent", func() (struct{}, error) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return struct{}{}, nil
		case <-ctx.Done():
			return struct{}{}, ctx.Err()
		}
	})
	var in *interrupted
	switch {
	case errors.As(err, &in):
		return c.failInput(err), false
	case err != nil:
		return exitRunFailed, false
	}
	return 0, true
}

// defaultSnapshotPath is runs/<profile>-<UTC time>.json; the name keeps only characters that are
// safe in a file name on every system.
func defaultSnapshotPath(name string, start time.Time) string {
	n := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-", r)) {
			return r
		}
		return '_'
	}, name)
	if n == "" {
		n = "run"
	}
	return filepath.Join("runs", n+"-"+start.UTC().Format("20060102T150405Z")+".json")
}

// fail prints err for a person and returns code. Errors quote paths and file contents, so the
// text is made safe to show (safetext); its line breaks stay (a profile's list of problems).
// On a terminal each line is wrapped to its width (see errorLines); elsewhere it stays one line.
func (c *cli) fail(code int, err error) int {
	text := "rpcstress: " + safetext.Text(err.Error())
	if w, ok := c.stderrWidth(); ok {
		text = strings.Join(errorLines(text, w), "\n")
	}
	fmt.Fprintln(c.stderr, text)
	return code
}

// errorLines wraps each line of an error message to width cells, its continuation lines
// indented two cells so a reader sees where the next line of the message starts: the
// terminal's own wrap would cut words and paths mid-way. A path or URL wider than the line is
// broken at its slashes.
func errorLines(text string, width int) []string {
	var out []string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		indent := len(line) - len(strings.TrimLeft(line, " "))
		for i, l := range textfmt.WrapAt(strings.TrimLeft(line, " "), max(width-indent-2, 20), "/") {
			pad := indent
			if i > 0 {
				pad += 2
			}
			out = append(out, strings.Repeat(" ", pad)+l)
		}
	}
	return out
}
