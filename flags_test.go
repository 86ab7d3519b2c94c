package main

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/profiles"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"1/2", 1, 2, true},                     // the first of two machines
		{"2/2", 2, 2, true},                     // the last one
		{"1/1", 1, 1, true},                     // one machine: a shard of the whole
		{" 3 / 4 ", 3, 4, true},                 // spaces around the numbers are read past
		{"0/2", 0, 0, false},                    // shards count from 1
		{"3/2", 0, 0, false},                    // I above N
		{"1/0", 0, 0, false},                    // no machines
		{"-1/2", 0, 0, false},                   // negative
		{"2", 0, 0, false},                      // no slash: N missing
		{"a/2", 0, 0, false},                    // not a number
		{"1/2/3", 0, 0, false},                  // one slash only
		{"", 0, 0, false},                       // empty
		{"1.5/2", 0, 0, false},                  // whole numbers only
		{"1/99999999999999999999", 0, 0, false}, // N beyond int
	}
	for _, tt := range tests {
		i, n, err := parseShard(tt.in)
		if tt.ok {
			if err != nil || i != tt.i || n != tt.n {
				t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d", tt.in, i, n, err, tt.i, tt.n)
			}
			continue
		}
		want := fmt.Sprintf("--shard %q: write I/N with 1 ≤ I ≤ N, e.g. --shard 2/4", tt.in)
		if err == nil || err.Error() != want || i != 0 || n != 0 {
			t.Errorf("parseShard(%q) = %d, %d, %v; want the error %q", tt.in, i, n, err, want)
		}
	}
}

// FuzzParseShard: any input gives either a shard with 1 ≤ I ≤ N that prints back as it reads,
// or an error that names the input and shows the form; never a panic.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/2", "0/0", "3/2", " 2 / 4 ", "x", "1/", "/1", "+1/+2", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("--shard %q", s)) || !strings.Contains(err.Error(), "e.g. --shard 2/4") {
				t.Errorf("parseShard(%q): error %q does not name the input and the form", s, err)
			}
			return
		}
		if i < 1 || i > n {
			t.Fatalf("parseShard(%q) = %d/%d: outside 1 ≤ I ≤ N", s, i, n)
		}
		if i2, n2, err := parseShard(fmt.Sprintf("%d/%d", i, n)); err != nil || i2 != i || n2 != n {
			t.Errorf("parseShard(%q) = %d/%d, which reads back as %d/%d, %v", s, i, n, i2, n2, err)
		}
	})
}

// TestRunFlagOverrides: the run's flags become profile overrides, and each bad value is
// refused with a message that names its flag, the one rpcstress prints (exit 2).
func TestRunFlagOverrides(t *testing.T) {
	rate := engine.Rate(300)
	tests := []struct {
		args []string
		want profiles.Overrides // when err is ""
		err  string             // the whole message
	}{
		// Nothing given: no overrides, the profile decides.
		{nil, profiles.Overrides{}, ""},
		// Every override at once, shared and the run's own.
		{[]string{"--url", "http://h:1/", "--connections", "4", "--timeout", "2s", "--rate", "300/s", "--duration", "1m", "--requests", "9"},
			profiles.Overrides{URL: "http://h:1/", Connections: 4, Timeout: 2 * time.Second, Rate: &rate, Duration: time.Minute, MaxRequests: 9}, ""},
		// A rate that does not read.
		{[]string{"--rate", "fast"}, profiles.Overrides{}, `--rate: rate "fast": "fast" is not a number: write it as 500/s, 240/m or a plain number per second`},
		// An explicit 0 is not "not given".
		{[]string{"--duration", "0s"}, profiles.Overrides{}, "--duration 0s: must be positive"},
		{[]string{"--connections", "0"}, profiles.Overrides{}, "--connections 0: must be at least 1"},
		{[]string{"--connections", "-1"}, profiles.Overrides{}, "--connections -1: must be at least 1"},
		{[]string{"--streams", "0"}, profiles.Overrides{}, "--streams 0: must be at least 1"},
		// HTTP/2: the switches and the streams reach the profile's overrides.
		{[]string{"--h2c", "--streams", "8"}, profiles.Overrides{H2C: true, Streams: 8}, ""},
		{[]string{"--http2"}, profiles.Overrides{HTTP2: true}, ""},
		{[]string{"--timeout", "0s"}, profiles.Overrides{}, "--timeout 0s: must be more than 0: it bounds each request, e.g. 5s"},
		// The send tick reaches the profile's overrides (the profile checks its range); an
		// explicit 0 is refused here.
		{[]string{"--send-tick", "10ms"}, profiles.Overrides{SendTick: 10 * time.Millisecond}, ""},
		{[]string{"--send-tick", "0s"}, profiles.Overrides{}, "--send-tick 0s is out of range: use 100µs to 100ms (default 1ms)"},
		// The live updates: 1 to 60 a second.
		{[]string{"--fps", "0"}, profiles.Overrides{}, "--fps 0: use 1 to 60"},
		{[]string{"--fps", "61"}, profiles.Overrides{}, "--fps 61: use 1 to 60"},
		// A URL without its scheme.
		{[]string{"--url", "node:8545"}, profiles.Overrides{}, `--url "node:8545": write the scheme too, e.g. http://node:8545`},
		// Targets side by side, flood's form, with their answers compared.
		{[]string{"--url", "geth=http://a:8545", "--url=reth=http://b:8545", "--equality"},
			profiles.Overrides{Targets: []profiles.TargetURL{{Name: "geth", URL: "http://a:8545"}, {Name: "reth", URL: "http://b:8545"}}, Equality: true}, ""},
		// --equality alone reaches the profile, which may have targets.
		{[]string{"--equality"}, profiles.Overrides{Equality: true}, ""},
		// The two forms mixed: how to fix it.
		{[]string{"--url", "http://a:8545", "--url", "reth=http://b:8545"}, profiles.Overrides{},
			"--url http://a:8545 and --url reth=http://b:8545: name every target to send side by side (--url a=URL --url b=URL), or give one --url URL"},
		// Two plain URLs: the second no longer silently wins.
		{[]string{"--url", "http://a:8545", "--url", "http://b:8545"}, profiles.Overrides{},
			"--url is given 2 times: give one --url URL for one target, or name each to send side by side: --url a=URL --url b=URL"},
		// One named target.
		{[]string{"--url", "geth=http://a:8545"}, profiles.Overrides{},
			"--url geth=http://a:8545: one named target: side by side needs 2 to 4 (--url geth=http://a:8545 --url b=URL); for one target, give --url URL without a name"},
		// The reference node, likewise.
		{[]string{"--ref-url", "http://ref:8545/"}, profiles.Overrides{RefURL: "http://ref:8545/"}, ""},
		{[]string{"--ref-url", "ref:8545"}, profiles.Overrides{}, `--ref-url "ref:8545": write the scheme too, e.g. http://ref:8545`},
		{[]string{"--requests", "-1"}, profiles.Overrides{}, "--requests -1: must be 0 (no limit) or more"},
		{[]string{"--save-every", "10ms"}, profiles.Overrides{}, "--save-every 10ms: use 100ms or more"},
		// Two wrong at once: the first in the order rate, duration, the shared flags, the rest.
		{[]string{"--fps", "0", "--duration", "0s"}, profiles.Overrides{}, "--duration 0s: must be positive"},
		{[]string{"--requests", "-1", "--connections", "0"}, profiles.Overrides{}, "--connections 0: must be at least 1"},
	}
	for _, tt := range tests {
		got, err := parsed(t, newRunFlags, tt.args).overrides()
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%q: error %v", tt.args, err)
		case tt.err == "" && !reflect.DeepEqual(got, tt.want):
			t.Errorf("%q: overrides %+v, want %+v", tt.args, got, tt.want)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
		}
	}
}

// TestFindLimitFlags: find-limit takes the shared flags with the run's rules and lays its own
// over the profile's [search]; every problem of its own is said at once, each naming its flag.
func TestFindLimitFlags(t *testing.T) {
	tests := []struct {
		args []string
		err  string // "" for none; else the whole message
	}{
		// The shared flags, refused as a run refuses them.
		{[]string{"--connections", "0"}, "--connections 0: must be at least 1"},
		{[]string{"--timeout", "0s"}, "--timeout 0s: must be more than 0: it bounds each request, e.g. 5s"},
		{[]string{"--fps", "99"}, "--fps 99: use 1 to 60"},
		{[]string{"--url", "x"}, `--url "x": write the scheme too, e.g. http://x`},
		// The search's own, all problems together.
		{[]string{"--start", "x", "--precision", "5", "--probe", "0s", "--settle", "-1s"},
			"--start: rate \"x\": \"x\" is not a number: write it as 500/s, 240/m or a plain number per second\n" +
				"--precision: \"5\" is not a percentage: write it with a % sign, e.g. \"1%\"\n" +
				"--probe 0s: must be positive\n--settle -1s: must be positive"},
		// A settle of 0 is allowed: no time to settle.
		{[]string{"--settle", "0s"}, ""},
		{[]string{"--p99", "50ms", "--latency", "p95=40ms"}, "--p99 and --latency: give one latency bound"},
		{[]string{"--p99", "-5ms"}, `--p99 "-5ms": write a positive duration, e.g. --p99 50ms`},
	}
	for _, tt := range tests {
		f := parsed(t, newFindLimitFlags, tt.args)
		_, err := f.overrides()
		if err == nil {
			_, err = f.searchConfig(search.DefaultConfig())
		}
		if got := fmt.Sprint(err); (tt.err == "") != (err == nil) || err != nil && got != tt.err {
			t.Errorf("%q: error %q, want %q", tt.args, got, tt.err)
		}
	}
}

// parsed is a verb's flags as a command line of args sets them.
func parsed[F any](t *testing.T, newFlags func(*flag.FlagSet) F, args []string) F {
	t.Helper()
	fs := verbFlagSet("test")
	f := newFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return f
}
