package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/thresholds"
	"github.com/rpcstress/rpcstress/internal/outfile"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui/report"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// validateFlags are validate's flags: --data alone.
type validateFlags struct{ data string }

func newValidateFlags(fs *flag.FlagSet) *validateFlags {
	f := &validateFlags{}
	dataFlag(fs, &f.data)
	return f
}

// validate checks a profile and prints the resolved plan.
func (c *cli) validate(_ context.Context, f *validateFlags, args []string) int {
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress validate PROFILE.toml"))
	}
	data, err := dataOptions(f.data)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	p, err := whileWatching(c, "loading "+args[0], func() (*profiles.Profile, error) { return profiles.Load(args[0], c.getenv, data...) })
	if err != nil {
		return c.failInput(err)
	}
	if err := p.CheckTargets(); err != nil {
		return c.failInput(err)
	}
	p.Describe(c.stdout)
	fmt.Fprintf(c.stdout, "%s: ok\n", safetext.Line(args[0]))
	return exitOK
}

// reportFormats are the formats of `rpcstress report`, by --format name; the text report is
// laid out in width cells.
func reportFormats(width int) map[string]func(w io.Writer, s *engine.Snapshot) error {
	return map[string]func(w io.Writer, s *engine.Snapshot) error{
		"text": func(w io.Writer, s *engine.Snapshot) error { return report.WriteReport(w, s, width) },
		"json": report.WriteJSON,
		"csv":  report.WriteCSV,
		"html": report.WriteHTML,
	}
}

// echartsRetired is what `report --echarts` says. The flag put the ECharts library into the
// page so that its charts drew offline; the charts are now SVG drawn by rpcstress into every
// page, so there is nothing left for it to do. It is accepted and ignored, with this note,
// rather than refused: a script that passed it still gets its page, a better one.
const echartsRetired = "rpcstress: note: --echarts is retired and ignored: the HTML report's charts are " +
	"SVG inside the page, drawn without a library, a script or a network"

// reportFlags are the flags of `rpcstress report`.
type reportFlags struct{ format, out, echarts string }

func newReportFlags(fs *flag.FlagSet) *reportFlags {
	f := &reportFlags{}
	fs.StringVar(&f.format, "format", "text", "the `format`: text, json (the summary), csv (the per-second timeline) or html (a page with charts)")
	fs.StringVar(&f.out, "o", "", "write to this `file` instead of standard output")
	fs.StringVar(&f.echarts, "echarts", "", "retired: the HTML report's charts need no library (ignored, with a note)")
	return f
}

// report prints the report of a saved run as text, or exports it as json (the summary), csv
// (the per-second timeline) or html (one page with charts).
func (c *cli) report(ctx context.Context, f *reportFlags, files []string) int {
	if len(files) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress report RUN.json"))
	}
	width := c.textWidth()
	if f.out != "" {
		width = textfmt.DefaultWidth // a file has no terminal to fill
	}
	write, ok := reportFormats(width)[f.format]
	if !ok {
		return c.fail(exitUsage, fmt.Errorf("--format %q: use text, json, csv or html", f.format))
	}
	if f.echarts != "" {
		fmt.Fprintln(c.stderr, echartsRetired)
	}
	var target outfile.Target
	if f.out != "" {
		var err error
		if target, err = outfile.Check(f.out); err != nil {
			return c.fail(exitUsage, fmt.Errorf("-o %s: %w", f.out, err))
		}
	}
	s, err := c.readSnapshot(files[0])
	if err != nil {
		return c.failInput(err)
	}
	if f.out == "" {
		if err := write(c.stdout, s); err != nil {
			return c.fail(exitRunFailed, err)
		}
		return exitOK
	}
	var b bytes.Buffer
	if err := write(&b, s); err != nil {
		return c.fail(exitRunFailed, err)
	}
	if err := target.Write(ctx, b.Bytes()); err != nil {
		return c.fail(exitRunFailed, fmt.Errorf("writing the report to %s: %w", f.out, err))
	}
	fmt.Fprintf(c.stderr, "report (%s): %s\n", safetext.Line(f.format), safetext.Line(f.out))
	return exitOK
}

// compare prints saved runs side by side, stage by stage, with deltas against the first; runs
// of several targets target by target; one run of several targets its targets against each
// other.
func (c *cli) compare(files []string) int {
	usage := errors.New("usage: rpcstress compare A.json B.json … (deltas against A)\n" +
		"       rpcstress compare RUN.json (a run of several targets: its targets)")
	if len(files) == 0 {
		return c.fail(exitUsage, usage)
	}
	runs := make([]report.CompareRun, len(files))
	for i, f := range files {
		s, err := c.readSnapshot(f)
		if err != nil {
			return c.failInput(err)
		}
		runs[i] = report.CompareRun{File: f, Snapshot: s}
	}
	var err error
	switch {
	case len(runs) == 1 && len(runs[0].Snapshot.Targets) > 1:
		err = report.WriteCompareTargets(c.stdout, runs[0], c.textWidth())
	case len(runs) == 1:
		return c.fail(exitUsage, fmt.Errorf("%s ran a single target: give another run to compare it with\n%w", safetext.Line(files[0]), usage))
	default:
		err = report.WriteCompare(c.stdout, runs, c.textWidth())
	}
	switch {
	case errors.Is(err, report.ErrNothingToCompare):
		return c.fail(exitUsage, err)
	case err != nil:
		return c.fail(exitRunFailed, err)
	}
	return exitOK
}

// mergeFlags are the flags of `rpcstress merge`.
type mergeFlags struct {
	out   string
	force bool
}

func newMergeFlags(fs *flag.FlagSet) *mergeFlags {
	f := &mergeFlags{}
	fs.StringVar(&f.out, "o", "", "write the merged snapshot to this `file` (required)")
	fs.BoolVar(&f.force, "force", false, "merge even runs of different profiles or plans, or one run given twice")
	return f
}

// merge combines the snapshots of several machines into one.
func (c *cli) merge(ctx context.Context, f *mergeFlags, files []string) int {
	var err error
	if f.out == "" || len(files) < 2 {
		return c.fail(exitUsage, errors.New("usage: rpcstress merge -o OUT.json A.json B.json … (at least two runs)"))
	}
	target, err := outfile.Check(f.out)
	if err != nil {
		return c.fail(exitUsage, fmt.Errorf("-o %s: %w", f.out, err))
	}
	snaps := make([]*engine.Snapshot, len(files))
	for i, file := range files {
		if snaps[i], err = c.readSnapshot(file); err != nil {
			return c.failInput(err)
		}
	}
	m, err := engine.Merge(snaps, files, f.force)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	// The shards' verdicts hold for their own halves; the merged run is judged again on its own
	// numbers (each shard at half the rate fails "rps > 950" that the whole passes).
	ts, err := thresholds.FromSnapshots(snaps)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	m.Thresholds = thresholds.Evaluate(ts, m)
	if err := engine.SaveSnapshot(ctx, target, m); err != nil {
		return c.fail(exitRunFailed, err)
	}
	completed := fmt.Sprintf("%d requests completed", m.Totals.Completed)
	if len(m.Targets) > 0 { // each target's, the first's alone would read as the run's
		parts := make([]string, len(m.Targets))
		for i, t := range m.Targets {
			parts[i] = fmt.Sprintf("%s %d", safetext.Line(t.Name), t.Totals.Completed)
		}
		completed = "requests completed " + strings.Join(parts, ", ")
	}
	if err := textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("merged %d runs: %s; snapshot: %s", len(files),
		completed, safetext.Line(f.out)), c.textWidth()); err != nil {
		return c.fail(exitRunFailed, err)
	}
	if err := report.WriteThresholds(c.stdout, m.Thresholds, c.textWidth()); err != nil {
		return c.fail(exitRunFailed, err)
	}
	if thresholds.Failed(m.Thresholds) > 0 {
		return exitThresholds
	}
	return exitOK
}

// readSnapshot reads a saved run; a signal meanwhile ends the wait (a FIFO nobody writes to,
// a hung mount): `report /dev/stdin` on a pipe works, and Ctrl-C still works when it waits.
func (c *cli) readSnapshot(path string) (*engine.Snapshot, error) {
	return whileWatching(c, "reading "+path, func() (*engine.Snapshot, error) { return engine.ReadSnapshot(path) })
}
