package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/schema"
)

// These tests run `rpcstress find-limit` through the real CLI against limiters and a capacity
// knee of known settings, and check what it finds. Probes are short: at hundreds of requests
// per second and more (shortProbes), 0.5 s settle and 2 s measured, thousands of requests per
// window, so the ±2 requests of a window's edges are 0.1 % of the rate; at a few per second
// (searchProbes, 1 s and 3 s) the window's length is what bounds the precision (±2 requests
// in 3 s is ±17 % at 4/s), so those keep the longer window.
//
// Tolerances: the limit within 10 % of the configured rate (the search brackets it within its
// 5 % precision, a little above the rate since the SLO allows 1 % rejections); the burst within
// the estimate's own stated uncertainty plus 5 % of the burst (the estimate's ± counts requests
// and timing; the 5 % is for a busy machine, where requests reach the limiter later than
// planned).

// findLimit runs find-limit on a profile of getBalance calls to url over connections, with
// the given [search] table, and returns the run with its search section.
func findLimit(t *testing.T, url string, connections int, search string, args ...string) cliRun {
	t.Helper()
	start := time.Now()
	profile := writeProfile(t, url, connections, getBalance+search)
	r := runCLI(t, nil, append([]string{"find-limit", profile}, args...)...)
	// A probe that failed on the tester's own clause says the machine was too busy to offer the
	// rate (find-limit says so honestly), not what these tests check about the node: search
	// again, twice at most, rather than fail on a shared machine's load.
	for try := 1; try < 3 && testerSaturated(r); try++ {
		t.Logf("try %d: the tester itself fell behind (a busy machine), searching again: %s", try, r.snap.Search.Answer.Text)
		r = runCLI(t, nil, append([]string{"find-limit", profile}, args...)...)
	}
	if r.code != exitOK {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", r.code, r.stderr, r.stdout)
	}
	if r.snap == nil || r.snap.Search == nil {
		t.Fatalf("no search in the snapshot\nstdout: %s", r.stdout)
	}
	if err := r.snap.Totals.CheckInvariant(); err != nil {
		t.Errorf("invariant: %v", err)
	}
	s := r.snap.Search
	t.Logf("%d probes in %s (wall %s): %s", len(s.Probes), time.Duration(s.ElapsedS*float64(time.Second)).Round(time.Millisecond),
		time.Since(start).Round(time.Millisecond), s.Answer.Text)
	for _, p := range s.Probes {
		t.Logf("  probe %d %-8s %9.2f/s  ok %8.2f/s  p99 %7.2f ms  limited %6.2f%%  %s", p.N, p.Step, p.Rate, p.Goodput, p.LatencyMs, p.LimitedPct, p.Verdict)
	}
	if l := s.Limiter; l != nil {
		t.Logf("limiter: %s rate %.2f ± %.2f burst %.1f ± %.1f (at least: %v, from %s) %s; nginx %q", l.Kind, l.Rate, l.RateErr, l.Burst, l.BurstErr, l.BurstAtLeast, l.BurstFrom, l.Delay, l.Nginx)
		for _, n := range l.Notes {
			t.Logf("  note: %s", n)
		}
	}
	return r
}

// testerSaturated reports whether a probe of the search failed on the tester's own clause.
func testerSaturated(r cliRun) bool {
	if r.code != exitOK || r.snap == nil || r.snap.Search == nil {
		return false
	}
	for _, p := range r.snap.Search.Probes {
		for _, b := range p.Breaches {
			if b.Clause == "tester" {
				return true
			}
		}
	}
	return false
}

// checkLimit holds the answer within 10 % of want (per second).
func checkLimit(t *testing.T, s *engine.SearchResult, want float64) {
	t.Helper()
	a := s.Answer
	if !a.Found || math.Abs(a.Rate-want) > 0.10*want {
		t.Errorf("limit %v/s (found %v), want within 10%% of %v/s: %s", a.Rate, a.Found, want, a.Text)
	}
	if a.FirstBad == 0 || a.FirstBad < want*0.99 {
		t.Errorf("first bad %v/s, want just above %v/s", a.FirstBad, want)
	}
	if s.EndReason != "converged" {
		t.Errorf("end reason %q, want converged", s.EndReason)
	}
}

// checkTokenBucket holds the answer (see checkLimit) and the limiter estimate against the
// configured rate and burst.
func checkTokenBucket(t *testing.T, s *engine.SearchResult, rate, burst float64) {
	t.Helper()
	checkLimit(t, s, rate)
	l := s.Limiter
	if l == nil || l.Kind != "token bucket" {
		t.Fatalf("limiter %+v, want a token bucket", l)
	}
	if math.Abs(l.Rate-rate) > l.RateErr+0.02*rate {
		t.Errorf("limiter rate %.2f ± %.2f, want %v", l.Rate, l.RateErr, rate)
	}
	if tol := l.BurstErr + 0.05*burst; l.BurstAtLeast || math.Abs(l.Burst-burst) > tol {
		t.Errorf("burst %.1f ± %.1f (at least: %v), want %v within %.1f", l.Burst, l.BurstErr, l.BurstAtLeast, burst, tol)
	}
}

const (
	searchProbes = "[search]\nprobe = \"3s\"\nsettle = \"1s\"\n"
	shortProbes  = "[search]\nprobe = \"2s\"\nsettle = \"500ms\"\n"
)

// TestFindLimitMockLimiter1000: the mock node limited like nginx limit_req rate=1000r/s
// burst=60 nodelay. nodelay, because then an accepted answer comes back at once, so the burst
// probe's count depends only on when requests arrive (the delaying mode is tested through
// nginx below). About 15 s: 250, 500, 1000, 2000/s, a closing probe at 1050/s, the burst.
func TestFindLimitMockLimiter1000(t *testing.T) {
	_, url := startNode(t, mocknode.Config{Rate: 1000, Burst: 60, NoDelay: true})
	r := findLimit(t, url, 128, shortProbes+"start = \"250/s\"\n")
	s := r.snap.Search
	checkTokenBucket(t, s, 1000, 60)
	if s.Limiter.Delay != "nodelay" || !strings.Contains(s.Limiter.Nginx, "nodelay") {
		t.Errorf("delay %q nginx %q; want nodelay", s.Limiter.Delay, s.Limiter.Nginx)
	}
	// The headless output: a line per probe and the answer; the report shows the search.
	for _, want := range []string{"double", "Answer: ", "Limiter: token bucket", "snapshot: "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if len(r.snap.Stages) != len(s.Probes) {
		t.Errorf("%d stages for %d probes", len(r.snap.Stages), len(s.Probes))
	}
}

// TestFindLimitMockLimiter240PerMinute: limit_req rate=240r/m burst=60 nodelay. At 4/s a burst
// of 60 absorbs 15 s of double the rate, so short probes above the rate pass until the bucket
// is full (8/s does); the accepted rate of the limited probes (4/s) contradicts that pass, a
// confirm probe fails it, and the search settles at 4/s. The burst probe waits about 20 s for
// the bucket to empty. About 60 s in all: a long scenario (see longScenario).
func TestFindLimitMockLimiter240PerMinute(t *testing.T) {
	longScenario(t, "about 60 s")
	_, url := startNode(t, mocknode.Config{Rate: 4, Burst: 60, NoDelay: true})
	s := findLimit(t, url, 16, searchProbes+"start = \"2/s\"\n").snap.Search
	checkTokenBucket(t, s, 4, 60)
	if s.Limiter.Nginx != "rate=240r/m burst=60 nodelay" {
		t.Logf("nginx equivalent %q (rounded from the estimate)", s.Limiter.Nginx)
	}
}

// TestFindLimitCapacityKnee: a node serving 1500 calls/s (answers queue beyond it) and no
// limiter; with p99 ≤ 20 ms the search finds the knee within its 5 % precision, and says no
// limiter was detected. About 20 s. Under -race the tester cannot send 1500/s on a small
// machine (the search then says, rightly, that the limit it found is the tester's), so the
// knee is put at 500/s there.
func TestFindLimitCapacityKnee(t *testing.T) {
	longScenario(t, "20 s on a quiet machine, a minute with its retries on a busy one")
	knee, start := 1500.0, "400/s"
	if raceDetector {
		knee, start = 500, "200/s"
	}
	_, url := startNode(t, mocknode.Config{Capacity: mocknode.Rate(knee)})
	s := findLimit(t, url, 128, shortProbes+"start = \""+start+"\"\n", "--p99", "20ms").snap.Search
	a := s.Answer
	if !a.Found || a.Rate < knee*0.95 || a.Rate > knee*1.01 {
		t.Errorf("limit %v/s, want the knee at %v/s within 5%% (and not above it)", a.Rate, knee)
	}
	if a.FirstBad == 0 || a.FirstBad > a.Rate*1.05+1 || len(a.Breaches) == 0 || a.Breaches[0].Clause != "p99" {
		t.Errorf("first bad %v/s breaches %+v; want within the precision above, by p99", a.FirstBad, a.Breaches)
	}
	if s.Limiter == nil || s.Limiter.Kind != "none" {
		t.Errorf("limiter %+v, want none detected", s.Limiter)
	}
}

// TestFindLimitNginx: real nginx limit_req rate=6000r/m burst=60 in its default, delaying mode
// (requests within the burst wait until the rate allows them) in front of the mock node. About
// 25 s. Skipped when nginx is absent outside CI.
func TestFindLimitNginx(t *testing.T) {
	ngx, _ := startNginx(t, nginxLimit{RatePerMin: 6000, Burst: 60})
	s := findLimit(t, ngx.url(), 128, searchProbes+"start = \"25/s\"\n").snap.Search
	checkTokenBucket(t, s, 100, 60)
	if s.Limiter.Delay != "delay" {
		t.Errorf("delay mode %q, want delay (nginx holds the burst)", s.Limiter.Delay)
	}
}

// TestFindLimitNginxSeed002: seed 002's own limiter, nginx limit_req rate=240r/m burst=60 in
// its default, delaying mode. With a request timeout longer than its queue (60 at 4/s: 15 s), a
// probe just above 4/s sees nothing rejected and nothing timed out: nginx queues the excess and
// answers 4/s, so only the backlog clause (the node answered less than was sent) can find the
// limit; without it the search passed rates twice too high. 10 s probes, because at 4/s the
// clause's 2-request slack would hide up to 20 % in a 3 s window. About 2½ minutes: a long
// scenario (see longScenario).
func TestFindLimitNginxSeed002(t *testing.T) {
	longScenario(t, "about 2½ minutes")
	ngx, _ := startNginx(t, nginxLimit{RatePerMin: 240, Burst: 60})
	s := findLimit(t, ngx.url(), 64, "[search]\nprobe = \"10s\"\nsettle = \"2s\"\nstart = \"1/s\"\n", "--no-burst", "--timeout", "30s").snap.Search
	checkLimit(t, s, 4)
	backlog := false
	for _, b := range s.Answer.Breaches {
		backlog = backlog || b.Clause == "backlog"
	}
	if !backlog {
		t.Errorf("first bad probe's breaches %+v; want the backlog clause (a delaying limiter answers less than it is sent)", s.Answer.Breaches)
	}
	// Nothing was rejected, so no token bucket is claimed, but the notes name the rate answers
	// came back at and the delaying limit_req that would do that.
	if l := s.Limiter; l == nil || l.Kind != "none" || !strings.Contains(strings.Join(l.Notes, "\n"), "without nodelay") {
		t.Errorf("limiter %+v; want none, with a note on the queueing rate", l)
	}
}

// TestFindLimitBadInput: usage errors exit 2 naming the flag or file:line.
func TestFindLimitBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.toml", "url = \"http://127.0.0.1:1\"\n[[request]]\nmethod = \"x\"\n[search]\nmax_limted = \"1%\"\n")
	good := writeFile(t, dir, "good.toml", "url = \"http://127.0.0.1:1\"\n[[request]]\nmethod = \"x\"\n[search]\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"find-limit", bad}, `bad.toml:5: search.max_limted: unknown key: did you mean "max_limited"?`}, // a typo in [search]
		{[]string{"find-limit", good, "--max-limited", "1"}, `--max-limited: "1" is not a percentage`},           // a share without %
		{[]string{"find-limit", good, "--latency", "p98=5ms"}, `"p98" is not a percentile`},                      // no such percentile
		{[]string{"find-limit", good, "--start", "500/s", "--max-rate", "100/s"}, "max 100/s is below start"},    // max below start
		{[]string{"find-limit"}, "no profile given"},                                                             // nothing to search
		{[]string{good}, "run `rpcstress find-limit"},                                                            // a search-only profile run as a test
	} {
		r := runCLI(t, nil, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d stderr %q; want exit 2 mentioning %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

// TestFindLimitBudgetAndReport: a budget of two probes ends the search with the best answer so
// far, and `rpcstress report` shows the search section of the snapshot. What is measured is
// the budget, not the node, so the probes are as short as a probe can be: 0.5 s settle and
// 1 s measured (a one-second window cannot fail the SLO's tester clause, which wants two
// saturated seconds). The budget, 4.4 s, lies between two probes (3 s) and three (4.5 s): a
// probe is not started when the time so far plus the longest probe yet would pass it, so the
// first probe may overrun its 1.5 s by 0.7 s (the runner's start and drain on a busy
// machine) and the second still runs. Serial: beside other tests, under -race, a 1.5 s probe
// took 2.5 s. About 3 s.
func TestFindLimitBudgetAndReport(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	r := findLimit(t, url, 32, "[search]\nprobe = \"1s\"\nsettle = \"500ms\"\nbudget = \"4.4s\"\nstart = \"100/s\"\n")
	s := r.snap.Search
	if s.EndReason != "budget" || len(s.Probes) != 2 || !s.Answer.Found || s.Answer.Rate != 200 {
		t.Errorf("end %q, %d probes, answer %+v; want the budget to stop it after 100 and 200/s", s.EndReason, len(s.Probes), s.Answer)
	}
	if !strings.Contains(s.Answer.Text, "budget ran out") {
		t.Errorf("the answer does not say the budget ended it: %s", s.Answer.Text)
	}
	rep := runVerb(t, "report", r.out)
	if rep.code != exitOK {
		t.Fatalf("report exit %d: %s", rep.code, rep.stderr)
	}
	for _, want := range []string{"Find the limit", "Answer: ", "probe 1", "Invariant ✓"} {
		if !strings.Contains(rep.stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, rep.stdout)
		}
	}
	// The JSON summary and the HTML page carry the answer too.
	sum := runVerb(t, "report", r.out, "--format", "json")
	checkSchema(t, schema.Summary, []byte(sum.stdout), "a find-limit run's summary")
	if sum.code != exitOK || !strings.Contains(sum.stdout, `"answer": {`) || !strings.Contains(sum.stdout, `"text": "`+jsonText(t, s.Answer.Text)+`"`) {
		t.Errorf("report --format json: exit %d %s; lacks the answer:\n%s", sum.code, sum.stderr, sum.stdout)
	}
	page := runVerb(t, "report", r.out, "--format", "html")
	if page.code != exitOK || !strings.Contains(page.stdout, "Answer: ") || !strings.Contains(page.stdout, `id="chart_probes"`) {
		t.Errorf("report --format html: exit %d %s; lacks the answer or the probe chart", page.code, page.stderr)
	}
}

// jsonText is s as it reads inside a JSON string.
func jsonText(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(string(b), `"`)
}

// TestFindLimitWebSocket: the search over ws:// against the mock limiter (rate=400r/s burst=30
// nodelay), which answers a refused message with JSON-RPC -32005 inside it (there is no HTTP
// status on an open WebSocket): those answers are limited, so the search finds the limit and
// the token bucket as over HTTP. About 15 s.
func TestFindLimitWebSocket(t *testing.T) {
	longScenario(t, "15 s on a quiet machine, about 50 with its retries on a busy one")
	node, url := startNode(t, mocknode.Config{Rate: 400, Burst: 30, NoDelay: true})
	r := findLimit(t, nodetest.WSURL(url), 64, shortProbes+"start = \"100/s\"\n")
	s := r.snap.Search
	checkTokenBucket(t, s, 400, 30)
	// The limited answers were the limiter's -32005s inside 200s (the node refused more
	// than the probes count: the search's settling and burst probes are not in its totals).
	tot := r.snap.Totals
	if st := node.Stats(); tot.Limited == 0 || tot.RPCErrors["-32005"] != tot.Limited || tot.Status["429"] != 0 || st.WS.Limited < tot.Limited {
		t.Errorf("limited %d (-32005 %d, 429 %d); the node refused %d messages with -32005", tot.Limited, tot.RPCErrors["-32005"], tot.Status["429"], st.WS.Limited)
	}
}
