package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/rpcstress/rpcstress/harvest"
	"github.com/rpcstress/rpcstress/internal/cliflag"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// harvestFlags are the flags of `rpcstress harvest`.
type harvestFlags struct {
	chain, out    string
	blocks        int
	rate          float64
	batch         int
	timeout       time.Duration
	quietProgress bool
}

func newHarvestFlags(fs *flag.FlagSet) *harvestFlags {
	f := &harvestFlags{}
	fs.StringVar(&f.chain, "chain", "", "the node's `chain`: evm or solana (required)")
	fs.IntVar(&f.blocks, "blocks", harvest.DefaultBlocks, "read this many of the newest `blocks` (slots on solana)")
	fs.StringVar(&f.out, "out", "harvest", "write the files into this `folder` (made if missing)")
	fs.Float64Var(&f.rate, "rate", harvest.DefaultRate, "at most this many HTTP `requests` a second to the node")
	fs.IntVar(&f.batch, "batch", harvest.DefaultBatch, "calls per JSON-RPC batch (`n`; 1: no batches)")
	cliflag.DurationVar(fs, &f.timeout, "timeout", 30*time.Second, "one request's limit")
	fs.BoolVar(&f.quietProgress, "quiet", false, "no progress lines, only the summary")
	return f
}

// harvest reads parameters from a reference node into line files.
func (c *cli) harvest(ctx context.Context, f *harvestFlags, pos []string) int {
	if len(pos) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress harvest URL --chain evm|solana [--blocks N] [--out DIR]"))
	}
	// 0 means "the default" to harvest.Options; on the command line it is a mistake to name.
	for _, z := range []struct {
		name string
		zero bool
	}{{"--blocks", f.blocks == 0}, {"--rate", f.rate == 0}, {"--batch", f.batch == 0}} {
		if z.zero {
			return c.fail(exitUsage, fmt.Errorf("%s 0: give a positive number (or leave the flag out for its default)", z.name))
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var caught caughtSignal
	stopWatching := c.watchSignals(func(s syscall.Signal) {
		cancel(fmt.Errorf("%s", signalName(s)))
	}, &caught, nil)
	defer stopWatching()

	o := harvest.Options{URL: pos[0], Chain: f.chain, Blocks: f.blocks, OutDir: f.out,
		Rate: f.rate, Batch: f.batch, Timeout: f.timeout}
	if !f.quietProgress {
		o.Progress = newHarvestProgress(c.stderr).show
	}
	m, err := harvest.Run(ctx, o)
	if sig := caught.end(); sig != 0 {
		if m != nil {
			writeHarvestSummary(c.stderr, m, f.out)
		}
		fmt.Fprintf(c.stderr, "harvest: stopped by %s; what was read is kept (manifest: \"complete\": false)\n", signalName(sig))
		return 128 + int(sig)
	}
	if m == nil {
		return c.fail(exitUsage, fmt.Errorf("harvest: %w", err))
	}
	writeHarvestSummary(c.stderr, m, f.out)
	if errors.Is(err, harvest.ErrNotWritten) {
		return c.fail(exitRunFailed, fmt.Errorf("harvest: %w", err))
	}
	if err != nil {
		return c.fail(exitRunFailed, fmt.Errorf("harvest: %w (what was read before is kept, marked partial)", err))
	}
	if !m.Complete {
		return exitRunFailed
	}
	return exitOK
}

// harvestProgress prints a progress line at most every second, each a line of its own (it runs
// over SSH and into logs; a redrawn line would fill a log with carriage returns).
type harvestProgress struct {
	w    io.Writer
	last time.Time
	seen string
}

func newHarvestProgress(w io.Writer) *harvestProgress { return &harvestProgress{w: w} }

func (p *harvestProgress) show(pr harvest.Progress) {
	now := time.Now()
	if pr.Phase != "blocks" {
		return // identify and window take a few requests: the summary tells their outcome
	}
	if pr.Phase == p.seen && now.Sub(p.last) < time.Second && pr.Done < pr.Total {
		return
	}
	p.seen, p.last = pr.Phase, now
	line := fmt.Sprintf("harvest: blocks %d/%d (%.0f%%)", pr.Done, pr.Total, 100*float64(pr.Done)/float64(pr.Total))
	line += fmt.Sprintf("  %d requests  %s", pr.Requests, pr.Elapsed.Round(time.Second))
	if pr.ETA > 0 {
		line += fmt.Sprintf("  ETA %s", pr.ETA.Round(time.Second))
	}
	fmt.Fprintln(p.w, line)
}

// writeHarvestSummary says what was written and what the window is, each line within 80
// columns (the window note is wrapped, its later lines indented).
func writeHarvestSummary(w io.Writer, m *harvest.Manifest, dir string) {
	state := "complete"
	if !m.Complete {
		state = "PARTIAL: " + m.Partial
	}
	fmt.Fprintf(w, "harvest: %s chain %s, head %d\n", m.Chain, safetext.Line(m.ChainID), m.Head)
	fmt.Fprintf(w, "  blocks %d…%d: %d read, %d requests\n", m.From, m.To, m.Read, m.Requests)
	for i, l := range textfmt.Wrap("window: "+safetext.Line(m.WindowNote), 76) {
		if i > 0 {
			l = "  " + l
		}
		fmt.Fprintln(w, "  "+l)
	}
	for _, e := range m.Files {
		fmt.Fprintf(w, "  %-18s %7d lines\n", e.Name, e.Lines)
	}
	if len(m.Skipped) > 0 {
		fmt.Fprintf(w, "  skipped %d (see %s): %s\n", len(m.Skipped), harvest.ManifestName, textfmt.Truncate(safetext.Line(m.Skipped[0]), 40))
	}
	for _, l := range textfmt.Wrap(state+", in "+safetext.Line(dir)+"/ ("+harvest.ManifestName+")", 76) {
		fmt.Fprintln(w, "  "+l)
	}
}
