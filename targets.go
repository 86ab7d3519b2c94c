package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/charmbracelet/x/term"

	"github.com/rpcstress/rpcstress/profiles"
)

// firstTargetHint is how long a run waits for its first target on standard input before it
// says that it is waiting: a generator may take a moment to start, but a forgotten pipe
// must not look like a hang.
const firstTargetHint = time.Second

// loadTargets builds the profile of `--targets FILE`: the flags give what a target file has
// no place for, the plan. For "-" the targets stream from standard input while the run goes;
// the first is read here (a bad one is bad input before anything is sent), which waits for
// the generator, saying so after firstTargetHint; a signal meanwhile ends the program
// (whileWatching).
func (c *cli) loadTargets(f *runFlags, o profiles.Overrides) (*profiles.Profile, error) {
	stream := f.targets == "-"
	switch {
	case len(o.Targets) > 0:
		return nil, fmt.Errorf("--targets %s sends to one node, and --url NAME=URL names %d: to send side by side, write the requests as [[request]] tables of a profile and give it the --url NAME=URL flags", f.targets, len(o.Targets))
	case f.equality:
		return nil, fmt.Errorf("--targets %s sends to one node, so --equality has no answers to compare: side by side needs a profile with [[request]] tables and --url NAME=URL for each target", f.targets)
	case stream && o.Rate == nil:
		return nil, errors.New("--targets - needs a --rate, e.g. --rate 100/s")
	case !stream && (o.Rate == nil || o.Duration <= 0):
		return nil, fmt.Errorf("--targets %s needs --rate and --duration, e.g. --rate 100/s --duration 30s", f.targets)
	}
	opts := profiles.TargetOptions{Rate: *o.Rate, Duration: o.Duration, URL: o.URL}
	load := func() (*profiles.Profile, error) { return profiles.FromTargets(f.targets, opts, c.getenv) }
	if !stream {
		return whileWatching(c, "reading "+f.targets+": nothing was sent", load)
	}
	opts.Stdin = c.stdin
	if in, ok := c.stdin.(*os.File); ok && term.IsTerminal(in.Fd()) && !f.headless {
		// The dashboard would read its keys from the terminal the targets are typed on.
		fmt.Fprintln(c.stderr, "rpcstress: targets from the terminal: lines, not the dashboard (ctrl+d ends)")
		f.headless = true
	}
	hint := time.AfterFunc(firstTargetHint, func() {
		fmt.Fprintln(c.stderr, "rpcstress: waiting for the first target on standard input (--targets -)")
	})
	defer hint.Stop()
	return whileWatching(c, "waiting for the first target on standard input: nothing was sent", load)
}
