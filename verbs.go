package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
)

// validate checks a profile and prints the resolved plan.
func (c *cli) validate(args []string) int {
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress validate PROFILE.toml"))
	}
	p, err := profiles.Load(args[0], c.getenv)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	p.Describe(c.stdout)
	fmt.Fprintf(c.stdout, "%s: ok\n", args[0])
	return exitOK
}

// report prints the text report of a saved run.
func (c *cli) report(args []string) int {
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress report RUN.json"))
	}
	s, err := engine.ReadSnapshot(args[0])
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if err := tui.WriteReport(c.stdout, s); err != nil {
		return c.fail(exitRunFailed, err)
	}
	return exitOK
}

// merge combines the snapshots of several machines into one.
func (c *cli) merge(args []string) int {
	fs := flag.NewFlagSet("rpcstress merge", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	out := fs.String("o", "", "write the merged snapshot to this `file` (required)")
	force := fs.Bool("force", false, "merge even runs of different profiles or plans")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *out == "" || len(files) < 2 {
		return c.fail(exitUsage, errors.New("usage: rpcstress merge -o OUT.json A.json B.json … (at least two runs)"))
	}
	snaps := make([]*engine.Snapshot, len(files))
	for i, f := range files {
		if snaps[i], err = engine.ReadSnapshot(f); err != nil {
			return c.fail(exitUsage, err)
		}
	}
	m, err := engine.Merge(snaps, files, *force)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if err := engine.WriteSnapshot(*out, m); err != nil {
		return c.fail(exitRunFailed, err)
	}
	fmt.Fprintf(c.stdout, "merged %d runs: %d requests completed; snapshot: %s\n", len(files), m.Totals.Completed, *out)
	return exitOK
}
