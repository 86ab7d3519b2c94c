package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/cliflag"
	"github.com/rpcstress/rpcstress/profiles"
)

// runFlags are the flags of a run, as the CLI contract in DESIGN.md names them.
type runFlags struct {
	headless    bool
	demo        bool
	out         string
	url         string
	rate        string
	duration    time.Duration
	connections int
	timeout     time.Duration
	requests    int64
	fps         int
	shard       string
	startAt     string
	saveEvery   time.Duration
	inline      bool
	exitOnEnd   bool
	cpuProfile  string
	targets     string
	// set holds the flags given on the command line (see noteSet): 0 is the "not given"
	// value of --connections, --timeout and --duration, so an explicit 0 must be told apart.
	set map[string]bool
}

func newRunFlags() (*flag.FlagSet, *runFlags) {
	f := &runFlags{}
	fs := flag.NewFlagSet("rpcstress", flag.ContinueOnError)
	fs.BoolVar(&f.headless, "headless", false, "print one line per second instead of the dashboard (the default when output is not a terminal)")
	fs.BoolVar(&f.inline, "inline", false, "draw the dashboard without the alternate screen, so the final report stays in scrollback")
	fs.BoolVar(&f.exitOnEnd, "exit-on-end", false, "leave the dashboard as soon as the run ends instead of waiting for a key")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the run to this `file` (for `go tool pprof`)")
	fs.BoolVar(&f.demo, "demo", false, "start the embedded mock node on 127.0.0.1 and run against it (default profile: the bundled demo)")
	fs.StringVar(&f.out, "out", "", "write the snapshot to this `file` (default runs/<profile>-<UTC time>.json)")
	fs.StringVar(&f.url, "url", "", "target `URL`, replacing the profile's")
	fs.StringVar(&f.targets, "targets", "", "send the targets of a `file` instead of a profile: vegeta's http or json format, or a JSON-RPC call per line (sent to --url); needs --rate and --duration, but --targets - (standard input, streamed until it ends) only --rate")
	fs.StringVar(&f.rate, "rate", "", "one fixed `rate` (500/s, 240/m, a number per second) replacing the profile's stages")
	cliflag.DurationVar(fs, &f.duration, "duration", 0, "run for this long: cuts or extends the profile's plan")
	fs.IntVar(&f.connections, "connections", 0, "at most `N` connections, so N requests in flight")
	cliflag.DurationVar(fs, &f.timeout, "timeout", 0, "per-request timeout")
	fs.Int64Var(&f.requests, "requests", 0, "stop after `N` requests (like bombardier -n)")
	fs.IntVar(&f.fps, "fps", 10, "live updates per second")
	cliflag.DurationVar(fs, &f.saveEvery, "save-every", 10*time.Second, "rewrite the snapshot file this often while running (end_reason \"running\"), so a crash loses at most this much")
	fs.StringVar(&f.shard, "shard", "", "run shard `I/N` of a multi-machine run: this instance sends 1/N of the planned rate")
	fs.StringVar(&f.startAt, "start-at", "", "wait until this RFC3339 `time` before starting (all shards start together)")
	return fs, f
}

// noteSet records which flags the command line gave, after parsing.
func (f *runFlags) noteSet(fs *flag.FlagSet) {
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
}

// overrides turns the flags into profile overrides; every error names its flag.
func (f *runFlags) overrides() (profiles.Overrides, error) {
	o := profiles.Overrides{URL: f.url, Duration: f.duration, Connections: f.connections, Timeout: f.timeout, MaxRequests: f.requests}
	if f.rate != "" {
		r, err := engine.ParseRate(f.rate)
		if err != nil {
			return o, fmt.Errorf("--rate: %w", err)
		}
		o.Rate = &r
	}
	switch {
	case f.duration < 0 || f.set["duration"] && f.duration == 0:
		return o, fmt.Errorf("--duration %s: must be positive", f.duration)
	case f.connections < 0 || f.set["connections"] && f.connections == 0:
		return o, fmt.Errorf("--connections %d: must be at least 1", f.connections)
	case f.set["timeout"] && profiles.CheckTimeout(f.timeout) != nil:
		return o, fmt.Errorf("--timeout %s: %w", f.timeout, profiles.CheckTimeout(f.timeout))
	case f.requests < 0:
		return o, fmt.Errorf("--requests %d: must be 0 (no limit) or more", f.requests)
	case f.saveEvery < 100*time.Millisecond:
		return o, fmt.Errorf("--save-every %s: use 100ms or more", f.saveEvery)
	case f.fps < 1 || f.fps > 60:
		return o, fmt.Errorf("--fps %d: use 1 to 60", f.fps)
	case f.url != "" && !strings.Contains(f.url, "://"):
		return o, fmt.Errorf("--url %q: write the scheme too, e.g. http://%s", f.url, f.url)
	}
	return o, nil
}

// parseShard reads --shard I/N.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			n, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: write I/N with 1 ≤ I ≤ N, e.g. --shard 2/4", s)
	}
	return i, n, nil
}

// parseStartAt reads --start-at as RFC3339.
func parseStartAt(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--start-at %q: write an RFC3339 time such as 2026-11-23T10:00:00Z: %w", s, err)
	}
	return t, nil
}
