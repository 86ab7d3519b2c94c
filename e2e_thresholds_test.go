package main

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Thresholds through the real CLI: a run against the mock node (limit 300/s burst 100 nodelay:
// a burst large enough that a busy machine's late, bunched sends at 200/s are not rejected),
// 200/s then 600/s for 2 s each, judged by the profile's [thresholds]: exit 0 when all hold,
// 1 when one fails (the report says which and by how much), 2 for a typo at load time.

const thresholdsPlan = `
[[stage]]
rate = "200/s"
duration = "2s"
[[stage]]
rate = "600/s"
duration = "2s"
`

func TestThresholdsPass(t *testing.T) {
	_, url := startNode(t, mocknode.Config{Rate: 300, Burst: 100, NoDelay: true})
	p := writeProfile(t, url, 64, getBalance+thresholdsPlan+`
[thresholds]
p99 = "< 500ms"
failed = "== 0"
dropped = "== 0"
[thresholds.stage.1]
limited = "< 1%"
rps = "> 190"
[thresholds.stage.2]
limited = "> 20%"
ok = ["> 40%", "< 70%"]
`)
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	if !strings.Contains(r.stdout, "Thresholds ✓ all 8 hold") {
		t.Errorf("no verdict in the output:\n%s", r.stdout)
	}
	if n := len(r.snap.Thresholds); n != 8 {
		t.Errorf("%d thresholds in the snapshot, want 8", n)
	}
	for _, th := range r.snap.Thresholds {
		if !th.Pass || th.Where == "" {
			t.Errorf("threshold %+v: want a pass with its file:line", th)
		}
	}
}

func TestThresholdsFail(t *testing.T) {
	_, url := startNode(t, mocknode.Config{Rate: 300, Burst: 100, NoDelay: true})
	p := writeProfile(t, url, 64, getBalance+thresholdsPlan+`
[thresholds]
p99 = "< 500ms"
[thresholds.stage.2]
limited = "< 1%"
`)
	r := runCLI(t, nil, p)
	mustRun(t, r, exitThresholds)
	for _, want := range []string{"Thresholds ✗ 1 of 2 failed", "✗ FAIL  stage 2 limited  < 1%", "points over", "p.toml:20"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, r.stdout)
		}
	}
	th := r.snap.Thresholds
	if len(th) != 2 || !th[0].Pass || th[1].Pass || th[1].Measured < 35 || th[1].Margin > -34 {
		t.Errorf("snapshot thresholds %+v; want p99 passing, stage 2 limited failing by about 40 points", th)
	}
}

func TestThresholdsTypo(t *testing.T) {
	t.Parallel()
	p := writeProfile(t, "http://127.0.0.1:1/", 8, getBalance+thresholdsPlan+`
[thresholds]
p99 = "< 50ms"
limted = "< 1%"
`)
	r := runCLI(t, nil, p)
	want := `p.toml:19: thresholds.limted: unknown metric: did you mean "limited"?`
	if r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d stderr %q; want exit 2 with %q", r.code, r.stderr, want)
	}
	if r.snap != nil {
		t.Error("a snapshot was written for a profile that does not load")
	}
}
