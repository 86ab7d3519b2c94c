package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// widthProfile is a run with much to report: a mix of four requests (one a batch, one a method
// the node does not know: JSON-RPC errors), three stages across the node's limit, and
// thresholds that fail.
const widthProfile = getBalance + `weight = 3
[[request]]
method = "getSlot"
[[request]]
method = "noSuchMethodAtAllForTheNode"
[[request]]
batch = [{method = "getSlot"}, {method = "getBalance", params = ["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}]
[[stage]]
rate = "100/s"
duration = "1s"
[[stage]]
rate = "400/s"
duration = "1s"
[[stage]]
rate = "50/s"
duration = "1s"
[thresholds]
p99 = "< 1ms"
limited = "< 1%"
[thresholds.stage.3]
rps = "> 45"
`

// TestE2EOutputsFit80Columns: on a pipe, no line rpcstress prints is wider than 80 terminal
// cells: a headless run (its per-second lines, the final report and the thresholds), one
// stopped by SIGINT before its last stage, `report` of it, `compare` of three runs, `validate`
// of every bundled profile, and a find-limit search (its lines and its answer).
func TestE2EOutputsFit80Columns(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{Rate: 200, Burst: 10, NoDelay: true})
	p := writeProfile(t, url, 32, widthProfile)
	outputs := map[string]string{}

	full := runCLI(t, nil, p)
	if full.code != exitThresholds || full.snap == nil {
		t.Fatalf("exit %d, want %d (failed thresholds)\n%s%s", full.code, exitThresholds, full.stdout, full.stderr)
	}
	outputs["headless run"] = full.stdout
	stopped := runCLI(t, signalAfter(syscall.SIGINT, 1500*time.Millisecond), p)
	if stopped.snap == nil || len(stopped.snap.Stages) != 3 || stopped.snap.Stages[2].Summary.Scheduled != 0 {
		t.Fatalf("want a run stopped in stage 2 of 3 (exit %d)\n%s%s", stopped.code, stopped.stdout, stopped.stderr)
	}
	outputs["stopped run"] = stopped.stdout
	if !strings.Contains(stopped.stdout, "did not run") {
		t.Errorf("the report of the stopped run does not say stage 3 did not run:\n%s", stopped.stdout)
	}

	outputs["report"] = runVerb(t, "report", stopped.out).stdout
	outputs["compare of 3"] = runVerb(t, "compare", full.out, stopped.out, full.out).stdout
	bundled, err := filepath.Glob("profiles/*.toml")
	if err != nil || len(bundled) == 0 {
		t.Fatalf("no bundled profiles: %v", err)
	}
	for _, b := range bundled {
		// The chain mixes read a harvest: the tests' small one (the checkout's harvest/ is Go).
		r := runVerb(t, "validate", b, "--data", "profiles/testdata/harvest")
		if r.code != exitOK {
			t.Errorf("validate %s: exit %d: %s", b, r.code, r.stderr)
		}
		outputs["validate "+b] = r.stdout
	}
	search := runCLI(t, nil, "find-limit", p, "--start", "50/s", "--probe", "1s", "--settle", "500ms", "--budget", "8s", "--no-burst")
	if search.code != exitOK {
		t.Fatalf("find-limit: exit %d\n%s%s", search.code, search.stdout, search.stderr)
	}
	outputs["find-limit"] = search.stdout
	for name, text := range outputs {
		if strings.TrimSpace(text) == "" {
			t.Errorf("%s: no output", name)
		}
		checkWidth(t, name, text)
	}
}

// TestErrorLines: an error shown on a terminal fits its width, every word of it kept in order,
// its continuation lines indented under the line they continue and a profile's list of
// problems keeping its own indent.
func TestErrorLines(t *testing.T) {
	for _, tt := range []struct {
		name  string
		text  string
		width int
		lines int // at least
	}{
		{"short stays one line", "rpcstress: --fps 0: use 1 to 60", 80, 1},
		{"send tick", "rpcstress: profiles/x.toml:3: send_tick: 1h0m0s is out of range: use 100µs to 100ms (default 1ms); a coarser tick costs less CPU and sends up to rate × tick at once", 80, 2},
		{"a long path", "rpcstress: open /tmp/" + strings.Repeat("very-long-folder-name/", 6) + "p.toml: no such file or directory", 60, 3},
		{"a list of problems", "rpcstress: profiles/x.toml has 2 problems:\n  profiles/x.toml:3: rate: \"fast\" is not a rate; use a number per second, such as \"500/s\", or \"2k/s\"\n  profiles/x.toml:9: duration: missing", 50, 5},
		{"narrower than 80", "rpcstress: --send-tick 1h0m0s is out of range: use 100µs to 100ms (default 1ms)", 40, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := errorLines(tt.text, tt.width)
			if len(got) < tt.lines {
				t.Errorf("%d lines, want at least %d: %q", len(got), tt.lines, got)
			}
			for _, l := range got {
				if w := ansi.StringWidth(l); w > tt.width {
					t.Errorf("line of %d cells at width %d: %q", w, tt.width, l)
				}
			}
			if strings.Join(strings.Fields(strings.Join(got, "")), "") != strings.Join(strings.Fields(tt.text), "") {
				t.Errorf("text changed:\n%q\nfrom\n%q", got, tt.text)
			}
			for i, l := range got[1:] {
				if !strings.HasPrefix(l, " ") {
					t.Errorf("line %d is not indented: %q", i+2, l)
				}
			}
		})
	}
}
