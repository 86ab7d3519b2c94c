package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/internal/gethtest"
)

// TestSideBySideGeth: two real geth --dev nodes side by side, nginx limit_req (10/s, burst 5,
// nodelay) in front of the second. The chain id and net_version are the same on both: 0
// mismatches. Their dev chains share a genesis but not block 1 (each node's own developer
// account sent its transaction, at its own time): eth_getBlockByNumber("0x1") mismatches on
// every pair of answers both sides gave, and the kept example's diff names the hash. Only the limited side
// counts 429s, exactly as many as nginx's access log, and that side's requests equal the log's
// lines; the unlimited side has none.
func TestSideBySideGeth(t *testing.T) {
	t.Parallel()
	a, b := gethtest.Start(t), gethtest.Start(t)
	a.History(t, 1, 0) // block 1 on each: its own developer's transfer, its own time
	b.History(t, 1, 0)
	ngx := startNginxBefore(t, nginxLimit{RatePerMin: 600, Burst: 5, NoDelay: true}, b.URL)
	profile := writeFile(t, t.TempDir(), "p.toml", fmt.Sprintf(`name = "e2e"
timeout = "5s"
connections = 8
compare_answers = true

[[target]]
name = "alone"
url = %q

[[target]]
name = "nginx"
url = %q

[[request]]
method = "eth_chainId"
[[request]]
method = "net_version"
[[request]]
method = "eth_getBlockByNumber"
params = ["0x1", false]

[[stage]]
rate = "30/s"
duration = "4s"
`, a.URL, ngx.url()))
	r := runCLI(t, nil, profile)
	mustRun(t, r, exitOK)
	if len(r.snap.Targets) != 2 || r.snap.Answers == nil {
		t.Fatalf("targets %d, answers %v: want two targets compared", len(r.snap.Targets), r.snap.Answers)
	}
	alone, limited := r.snap.Targets[0], r.snap.Targets[1]
	status, _, lines, _ := ngx.accessCounts(t)
	if got := limited.Totals.Status["429"]; got != status["429"] || got == 0 {
		t.Errorf("nginx side: 429s %d, nginx's log %d (want equal and some)", got, status["429"])
	}
	if limited.Totals.Completed != lines {
		t.Errorf("nginx side: %d requests completed, nginx logged %d", limited.Totals.Completed, lines)
	}
	if n := alone.Totals.Limited; n != 0 {
		t.Errorf("the unlimited side counts %d limited", n)
	}
	if alone.Totals.Scheduled != limited.Totals.Scheduled {
		t.Errorf("scheduled %d vs %d: both sides get every request", alone.Totals.Scheduled, limited.Totals.Scheduled)
	}
	by := r.snap.Answers.ByRequest
	for _, m := range []string{"eth_chainId", "net_version"} {
		if c := by[m]; c.Mismatch != 0 || c.ErrorVsResult != 0 || c.Match == 0 {
			t.Errorf("%s: %+v; want matches only (the limited answers incomplete)", m, c)
		}
	}
	blk := by["eth_getBlockByNumber"]
	if blk.Match != 0 || blk.Mismatch == 0 || blk.Mismatch+blk.Incomplete != blk.Compared {
		t.Errorf("eth_getBlockByNumber: %+v; want every complete pair a mismatch", blk)
	}
	found := false
	for _, ex := range r.snap.Answers.Examples {
		t.Logf("example %s %s: %d paths differ, e.g. %+v", ex.Request, ex.Kind, len(ex.Diff), ex.Diff[:min(2, len(ex.Diff))])
		for _, d := range ex.Diff {
			found = found || ex.Request == "eth_getBlockByNumber" && strings.HasSuffix(d.Path, "hash")
		}
	}
	if !found {
		t.Errorf("no kept eth_getBlockByNumber example whose diff names the hash: %+v", r.snap.Answers.Examples)
	}
	t.Logf("nginx side: %d completed, %d 429 (log: %d lines, %d 429); block mismatches %d, incomplete %d",
		limited.Totals.Completed, limited.Totals.Status["429"], lines, status["429"], blk.Mismatch, blk.Incomplete)
}
