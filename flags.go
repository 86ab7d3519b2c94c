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

// sessionFlags are the flags a run and a search share: how the progress shows, where the
// snapshot goes, and how the target is reached. runFlags and findLimitFlags each add their own.
type sessionFlags struct {
	headless, inline, exitOnEnd, demo bool
	http2, h2c, workers               bool
	out, refURL, data                 string
	urls                              specList // --url, repeatable: URL, or NAME=URL for each target
	connections, streams, fps         int
	timeout, sendTick                 time.Duration
	// fs is the flag set they are declared in, which knows which flags the command line gave
	// (see given).
	fs *flag.FlagSet
}

// sessionHelp is what the shared flags say in one verb's help: a run and a search show
// their progress differently and name their snapshots differently.
type sessionHelp struct{ headless, inline, exitOnEnd, demo, out, url string }

// declare adds the shared flags to fs, with the verb's own words where they differ.
func (f *sessionFlags) declare(fs *flag.FlagSet, h sessionHelp) {
	f.fs = fs
	fs.BoolVar(&f.headless, "headless", false, h.headless)
	fs.BoolVar(&f.inline, "inline", false, h.inline)
	fs.BoolVar(&f.exitOnEnd, "exit-on-end", false, h.exitOnEnd)
	fs.BoolVar(&f.demo, "demo", false, h.demo)
	fs.StringVar(&f.out, "out", "", h.out)
	fs.Var(&f.urls, "url", h.url)
	fs.StringVar(&f.refURL, "ref-url", "", "reference node `URL` whose chain head the target's is compared with (its lag), replacing the profile's ref_url; needs the profile's chain")
	fs.IntVar(&f.connections, "connections", 0, "at most `N` connections, so N requests in flight (over HTTP/2, N × --streams)")
	fs.BoolVar(&f.http2, "http2", false, "speak HTTP/2 over TLS (an https URL whose server agrees to \"h2\"), as the profile's http2 = true")
	fs.BoolVar(&f.h2c, "h2c", false, "speak HTTP/2 in cleartext with prior knowledge (an http URL), as the profile's h2c = true")
	fs.IntVar(&f.streams, "streams", 0, "requests each HTTP/2 connection carries at once, `N` (default 1), as the profile's streams")
	cliflag.DurationVar(fs, &f.timeout, "timeout", 0, "per-request timeout")
	cliflag.DurationVar(fs, &f.sendTick, "send-tick", 0, "the schedule's grain (default 1ms): the scheduler wakes this often and sends what is due; coarser costs less CPU and sends rate × tick at once, as the profile's send_tick")
	fs.BoolVar(&f.workers, "workers", false, "send plain HTTP/1.1 from a goroutine per connection, not from the one event loop (more CPU per request; for comparing the two)")
	fs.IntVar(&f.fps, "fps", 10, "live updates per second")
	dataFlag(fs, &f.data)
}

// given reports whether the command line gave the flag name, once parsed: 0 is the "not
// given" value of --connections, --timeout and --duration, so an explicit 0 must be told
// apart.
func (f *sessionFlags) given(name string) bool {
	found := false
	f.fs.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

// overrides checks the shared flags and turns them into profile overrides; every error
// names its flag.
func (f *sessionFlags) overrides() (profiles.Overrides, error) {
	o := profiles.Overrides{RefURL: f.refURL, Connections: f.connections, Timeout: f.timeout,
		HTTP2: f.http2, H2C: f.h2c, Streams: f.streams, SendTick: f.sendTick, Workers: f.workers}
	url, targets, urlErr := profiles.URLFlags(f.urls)
	switch {
	case f.connections < 0 || f.given("connections") && f.connections == 0:
		return o, fmt.Errorf("--connections %d: must be at least 1", f.connections)
	case f.streams < 0 || f.given("streams") && f.streams == 0:
		return o, fmt.Errorf("--streams %d: must be at least 1", f.streams)
	case f.given("timeout") && profiles.CheckTimeout(f.timeout) != nil:
		return o, fmt.Errorf("--timeout %s: %w", f.timeout, profiles.CheckTimeout(f.timeout))
	case f.sendTick < 0 || f.given("send-tick") && f.sendTick == 0:
		return o, fmt.Errorf("--send-tick %s is out of range: use %s to %s (default %s)", f.sendTick, engine.MinSendTick, engine.MaxSendTick, engine.DefaultSendTick)
	case f.fps < 1 || f.fps > 60:
		return o, fmt.Errorf("--fps %d: use 1 to 60", f.fps)
	case urlErr != nil:
		return o, urlErr
	case f.refURL != "" && !strings.Contains(f.refURL, "://"):
		return o, fmt.Errorf("--ref-url %q: write the scheme too, e.g. http://%s", f.refURL, f.refURL)
	}
	o.URL, o.Targets = url, targets
	return o, nil
}

// runFlags are the flags of a run, as the CLI contract in DESIGN.md names them.
type runFlags struct {
	sessionFlags
	rate       string
	duration   time.Duration
	requests   int64
	shard      string
	startAt    string
	saveEvery  time.Duration
	cpuProfile string
	memProfile string
	targets    string
	metrics    string // --metrics-listen
	watch      watchFlags
	equality   bool // --equality: compare the targets' answers
}

func newRunFlags(fs *flag.FlagSet) *runFlags {
	f := &runFlags{}
	f.declare(fs, sessionHelp{
		headless:  "print one line per second instead of the dashboard (the default when output is not a terminal)",
		inline:    "draw the dashboard without the alternate screen, so the final report stays in scrollback",
		exitOnEnd: "leave the dashboard as soon as the run ends instead of waiting for a key",
		demo:      "start the embedded mock node on 127.0.0.1 and run against it (default profile: the bundled demo)",
		out:       "write the snapshot to this `file` (default runs/<profile>-<UTC time>.json)",
		url:       "target `URL`, replacing the profile's; or NAME=URL, 2 to 4 times, for targets side by side (--url geth=http://a:8545 --url reth=http://b:8545)",
	})
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a Go CPU profile of the run to this `file` (for `go tool pprof`)")
	fs.StringVar(&f.memProfile, "memprofile", "", "write a Go heap profile taken as the run ends to this `file` (for `go tool pprof`)")
	fs.StringVar(&f.targets, "targets", "", "send the targets of a `file` instead of a profile: vegeta's http or json format, or a JSON-RPC call per line (sent to --url); needs --rate and --duration, but --targets - (standard input, streamed until it ends) only --rate")
	fs.StringVar(&f.rate, "rate", "", "one fixed `rate` (500/s, 240/m, a number per second) replacing the profile's stages")
	cliflag.DurationVar(fs, &f.duration, "duration", 0, "run for this long: cuts or extends the profile's plan")
	fs.Int64Var(&f.requests, "requests", 0, "stop after `N` requests (like bombardier -n)")
	cliflag.DurationVar(fs, &f.saveEvery, "save-every", 10*time.Second, "rewrite the snapshot file this often while running (end_reason \"running\"), so a crash loses at most this much")
	fs.StringVar(&f.shard, "shard", "", "run shard `I/N` of a multi-machine run: this instance sends 1/N of the planned rate")
	fs.StringVar(&f.metrics, "metrics-listen", "", "serve the live numbers to Prometheus on `host:port`/metrics (127.0.0.1:9464; :9464 for every interface)")
	fs.BoolVar(&f.equality, "equality", false, "compare the answers of the targets side by side (--url NAME=URL or the profile's [[target]] tables), as compare_answers = true does")
	fs.StringVar(&f.startAt, "start-at", "", "wait until this RFC3339 `time` before starting (all shards start together)")
	f.watch.declare(fs)
	return f
}

// overrides turns the flags into profile overrides; every error names its flag.
func (f *runFlags) overrides() (profiles.Overrides, error) {
	var rate *engine.Rate
	if f.rate != "" {
		r, err := engine.ParseRate(f.rate)
		if err != nil {
			return profiles.Overrides{}, fmt.Errorf("--rate: %w", err)
		}
		rate = &r
	}
	if f.duration < 0 || f.given("duration") && f.duration == 0 {
		return profiles.Overrides{}, fmt.Errorf("--duration %s: must be positive", f.duration)
	}
	o, err := f.sessionFlags.overrides()
	switch {
	case err != nil:
		return o, err
	case f.requests < 0:
		return o, fmt.Errorf("--requests %d: must be 0 (no limit) or more", f.requests)
	case f.saveEvery < 100*time.Millisecond:
		return o, fmt.Errorf("--save-every %s: use 100ms or more", f.saveEvery)
	}
	o.Rate, o.Duration, o.MaxRequests, o.Equality = rate, f.duration, f.requests, f.equality
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
