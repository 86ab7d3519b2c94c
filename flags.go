package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
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
}

func newRunFlags(w io.Writer) (*flag.FlagSet, *runFlags) {
	f := &runFlags{}
	fs := flag.NewFlagSet("rpcstress", flag.ContinueOnError)
	fs.SetOutput(w)
	fs.BoolVar(&f.headless, "headless", false, "print one line per second instead of the dashboard")
	fs.BoolVar(&f.demo, "demo", false, "start the embedded mock node on 127.0.0.1 and run against it (default profile: the bundled demo)")
	fs.StringVar(&f.out, "out", "", "write the snapshot to this `file` (default runs/<profile>-<UTC time>.json)")
	fs.StringVar(&f.url, "url", "", "target `URL`, replacing the profile's")
	fs.StringVar(&f.rate, "rate", "", "one fixed `rate` (500/s, 240/m, a number per second) replacing the profile's stages")
	fs.DurationVar(&f.duration, "duration", 0, "run for this long: cuts or extends the profile's plan")
	fs.IntVar(&f.connections, "connections", 0, "maximum connections, so requests in flight (`N`)")
	fs.DurationVar(&f.timeout, "timeout", 0, "per-request timeout")
	fs.Int64Var(&f.requests, "requests", 0, "stop after `N` requests (like bombardier -n)")
	fs.IntVar(&f.fps, "fps", 10, "live updates per second")
	return fs, f
}

// parseInterleaved parses flags that may stand before or after the positional arguments
// (`rpcstress p.toml --rate 100/s` reads as naturally as the other order).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
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
	case f.duration < 0:
		return o, fmt.Errorf("--duration %s: must be positive", f.duration)
	case f.connections < 0:
		return o, fmt.Errorf("--connections %d: must be at least 1", f.connections)
	case f.timeout < 0:
		return o, fmt.Errorf("--timeout %s: must be positive", f.timeout)
	case f.requests < 0:
		return o, fmt.Errorf("--requests %d: must be 0 (no limit) or more", f.requests)
	case f.fps < 1 || f.fps > 60:
		return o, fmt.Errorf("--fps %d: use 1 to 60", f.fps)
	case f.url != "" && !strings.Contains(f.url, "://"):
		return o, fmt.Errorf("--url %q: write the scheme too, e.g. http://%s", f.url, f.url)
	}
	return o, nil
}
