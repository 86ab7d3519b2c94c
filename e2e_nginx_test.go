package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/proctest"
)

// These tests put a real nginx with limit_req (Debian's package) between rpcstress and the mock
// node (its own limiter off), with seed 002's knobs as parameters, and hold rpcstress's numbers
// against nginx's access log and against what limit_req allows. The config is
// examples/nginx/limit_req.conf itself, with the addresses, rate, burst and nodelay substituted.
//
// Tolerance for "what limit_req allows". nginx's leaky bucket is exact arithmetic on a cached
// millisecond clock: in a stretch of T seconds with more demand than the rate R, it passes
// R×T requests plus whatever room the bucket had (burst when it starts empty). What can differ
// is counted in whole requests:
//   - the bucket's last partial slot: at the end of a stretch up to one request's worth of leak
//     has accrued without a request to use it (−1);
//   - the two stage edges: rpcstress files a request under the stage of its intended send time,
//     nginx decides at arrival on its cached millisecond clock, a few ms later. A shift of s at an
//     edge moves R×s requests across it: under one request at R = 100/s for s < 10 ms, so one
//     per edge;
//   - the first request ever creates the bucket and always passes (+1), in whichever stage it
//     falls (the expectations below add it where it matters).
// Integer truncation loses nothing at these rates (6000r/m is exactly 100000 thousandths per
// second), and the leak truncated per accepted request loses under 1/1000 request each. So the
// count must be within ±3 requests of R×T + room; 1% of R×T more covers a run under -race on a
// busy CI machine, where sends can leave a few ms late. Not covered: a machine so busy that no
// request reaches nginx for a while (measured from the access log, $msec − $request_time). If
// the bucket runs empty in such a pause, the leak of the rest of it is lost and fewer pass; so
// for a stage where nginx saw a pause longer than 3/R, only a widened upper bound is held (see
// checkAllowed) and the log says why.

// nginxConfigPath is the example config the tests run.
const nginxConfigPath = "examples/nginx/limit_req.conf"

// nginxLimit is one limit_req setting; RatePerMin 0 leaves limit_req out (a baseline).
type nginxLimit struct {
	RatePerMin int // the zone's rate=…r/m
	Burst      int
	NoDelay    bool
}

// perSecond is the limit's rate per second.
func (l nginxLimit) perSecond() float64 { return float64(l.RatePerMin) / 60 }

// nginxProc is an nginx the test started: its address, its prefix and the process.
type nginxProc struct {
	addr   string // 127.0.0.1:port
	prefix string
	*proctest.Proc
}

// requireNginx finds nginx (on PATH, or where packages put it), or skips the test when it is
// absent outside CI (see requireProgram).
func requireNginx(t *testing.T) string {
	t.Helper()
	return requireProgram(t, "install it (Debian: apt-get install -y nginx) to run the limit_req tests; CI always runs them",
		"nginx", "/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")
}

// nginxConfig renders examples/nginx/limit_req.conf for one test. Each substitution must match
// exactly once, so the example cannot drift away from what is tested.
func nginxConfig(t *testing.T, listen, upstream string, l nginxLimit) string {
	t.Helper()
	data, err := os.ReadFile(nginxConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	conf := string(data)
	limit := "# limit_req off: baseline"
	zone := "# no limit_req_zone: baseline"
	if l.RatePerMin > 0 {
		zone = fmt.Sprintf("limit_req_zone $server_name zone=node:1m rate=%dr/m;", l.RatePerMin)
		limit = fmt.Sprintf("limit_req zone=node burst=%d;", l.Burst)
		if l.NoDelay {
			limit = fmt.Sprintf("limit_req zone=node burst=%d nodelay;", l.Burst)
		}
	}
	for _, s := range []struct{ re, with string }{
		{`(?m)^(\s*)listen 127\.0\.0\.1:8080;`, "${1}listen " + listen + ";"},
		{`(?m)^(\s*)server 127\.0\.0\.1:8899;`, "${1}server " + upstream + ";"},
		{`(?m)^(\s*)limit_req_zone \$server_name zone=node:1m rate=240r/m;`, "${1}" + strings.ReplaceAll(zone, "$", "$$")},
		{`(?m)^(\s*)limit_req zone=node burst=60;`, "${1}" + limit},
	} {
		re := regexp.MustCompile(s.re)
		if n := len(re.FindAllStringIndex(conf, -1)); n != 1 {
			t.Fatalf("%s: %q matches %d times, want once: keep the example and e2e_nginx_test.go in step", nginxConfigPath, s.re, n)
		}
		conf = re.ReplaceAllString(conf, s.with)
	}
	return conf
}

// url is nginx's address as a target.
func (n *nginxProc) url() string { return "http://" + n.addr + "/" }

// startNginx starts the mock node (its own limiter off) and nginx with limit l in front of it,
// in the foreground with its own prefix, config and logs, and waits until nginx accepts
// connections. nginx is stopped (by its PID) at cleanup if the test has not stopped it
// already.
func startNginx(t *testing.T, l nginxLimit) (*nginxProc, *mocknode.Node) {
	t.Helper()
	requireNginx(t)
	node, nodeURL := startNode(t, mocknode.Config{})
	return startNginxBefore(t, l, nodeURL), node
}

// startNginxBefore starts nginx with limit l in front of the node at nodeURL (http://host:port,
// a real node's too), as startNginx does.
func startNginxBefore(t *testing.T, l nginxLimit, nodeURL string) *nginxProc {
	t.Helper()
	bin := requireNginx(t)
	upstream := strings.TrimSuffix(strings.TrimPrefix(nodeURL, "http://"), "/")
	prefix := t.TempDir()
	addr := proctest.FreeAddr(t)
	return launchNginx(t, bin, prefix, addr, nginxConfig(t, addr, upstream, l))
}

// launchNginx starts nginx (bin) on addr with conf in its own prefix, in the foreground, and
// waits until it accepts connections. It is stopped (by its PID) at cleanup if the test has
// not stopped it already.
func launchNginx(t *testing.T, bin, prefix, addr, conf string) *nginxProc {
	t.Helper()
	n := &nginxProc{addr: addr, prefix: prefix}
	confPath := writeFile(t, prefix, "nginx.conf", conf)
	// -e: the startup error log, before the config is read (the packaged default is stderr).
	p, err := proctest.Start(t, exec.Command(bin, "-p", prefix+"/", "-c", confPath, "-e", filepath.Join(prefix, "error.log")))
	if err != nil {
		t.Fatal(err)
	}
	n.Proc = p
	t.Cleanup(func() { n.stop(t) }) // gracefully, before proctest's kill
	accepts := func() bool {
		c, err := net.DialTimeout("tcp", n.addr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	}
	if err := n.Await(10*time.Second, "connection accepted on "+n.addr, accepts); err != nil {
		t.Fatalf("nginx: %v\nerror.log: %s", err, n.readFile("error.log"))
	}
	return n
}

func (n *nginxProc) readFile(name string) string {
	b, _ := os.ReadFile(filepath.Join(n.prefix, name))
	return string(b)
}

// stop ends nginx by its PID: SIGQUIT (graceful: requests in progress finish and are logged),
// SIGKILL if it takes more than 10 s. Stopping twice is fine.
func (n *nginxProc) stop(t *testing.T) {
	if !n.Stop(syscall.SIGQUIT, 10*time.Second) {
		t.Errorf("nginx (pid %d) ignored SIGQUIT for 10 s; it was killed", n.Cmd.Process.Pid)
	}
}

// accessCounts stops nginx, so every request has been logged, and counts its access log by
// status and by $limit_req_status.
func (n *nginxProc) accessCounts(t *testing.T) (status, limitReq map[string]int64, lines int64, arrivals []float64) {
	t.Helper()
	n.stop(t)
	f, err := os.Open(filepath.Join(n.prefix, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	status, limitReq = map[string]int64{}, map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			t.Fatalf("access log line %q: want $msec $status $limit_req_status $request_time …", sc.Text())
		}
		status[fields[1]]++
		limitReq[fields[2]]++
		lines++
		// $msec − $request_time is when the request arrived (Unix seconds, ms resolution).
		end, err1 := strconv.ParseFloat(fields[0], 64)
		took, err2 := strconv.ParseFloat(fields[3], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("access log line %q: $msec or $request_time is not a number", sc.Text())
		}
		arrivals = append(arrivals, end-took)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Float64s(arrivals)
	return status, limitReq, lines, arrivals
}

// largestPause is the longest time between two arrivals at nginx within [from, to) (Unix
// seconds). A pause means nginx or rpcstress got no CPU for that long.
func largestPause(arrivals []float64, from, to float64) time.Duration {
	var gap float64
	prev := from
	for _, a := range arrivals {
		if a < from {
			continue
		}
		if a >= to {
			break
		}
		gap = max(gap, a-prev)
		prev = a
	}
	return time.Duration(gap * float64(time.Second))
}

// nginxRun is one rpcstress run through nginx, with nginx's own counts.
type nginxRun struct {
	r        cliRun
	status   map[string]int64 // nginx's access log by $status
	limitReq map[string]int64 // by $limit_req_status
	arrivals []float64        // when each request reached nginx, Unix seconds, sorted
	limit    nginxLimit
}

// runThroughNginx starts the mock node (limiter off) and nginx with limit l in front of it,
// runs a profile with the given stages or ramp against nginx, stops nginx and checks that
// rpcstress's counts equal nginx's, exactly.
func runThroughNginx(t *testing.T, l nginxLimit, connections int, plan string) nginxRun {
	t.Helper()
	ngx, node := startNginx(t, l)
	p := writeProfile(t, ngx.url(), connections, getBalance+plan)
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	status, limitReq, lines, arrivals := ngx.accessCounts(t)
	tot := r.snap.Totals
	t.Logf("rpcstress: status %v errors %v completed %d dropped %d; nginx: status %v limit_req %v; node: %v",
		tot.Status, tot.Errors, tot.Completed, tot.Dropped, status, limitReq, node.Stats().Status)
	if tot.Dropped != 0 || len(tot.Errors) != 0 || tot.Inflight != 0 {
		t.Errorf("dropped %d errors %v inflight %d: every request should have had an answer", tot.Dropped, tot.Errors, tot.Inflight)
	}
	// Check (1): the same numbers on both sides of the wire, exactly.
	for _, code := range []string{"200", "429"} {
		if tot.Status[code] != status[code] {
			t.Errorf("status %s: rpcstress counted %d, nginx logged %d", code, tot.Status[code], status[code])
		}
	}
	if tot.Completed != lines {
		t.Errorf("rpcstress completed %d requests, nginx logged %d", tot.Completed, lines)
	}
	if got := node.Stats().Status["200"]; got != status["200"] {
		t.Errorf("the node answered %d, nginx passed %d", got, status["200"])
	}
	if l.RatePerMin > 0 && limitReq["REJECTED"] != status["429"] {
		t.Errorf("nginx rejected %d but logged %d 429s", limitReq["REJECTED"], status["429"])
	}
	return nginxRun{r: r, status: status, limitReq: limitReq, arrivals: arrivals, limit: l}
}

// checkAllowed holds stage i's 200s against what limit_req allows (want), within the tolerance
// explained at the top. A busy machine can starve nginx or rpcstress of CPU for a while; nothing
// then reaches nginx, the bucket may run empty and the leak of the pause is lost (fewer pass),
// and the stage's last requests may arrive after its end, using leak of the next stage's time
// (up to rate × pause more pass). When nginx saw a pause of more than 3 requests' worth (3/rate)
// around the stage, the shortfall is the machine's and is only logged, and the upper bound grows
// by rate × pause: never more than limit_req can allow in the time the requests arrived.
func checkAllowed(t *testing.T, run nginxRun, i int, want float64) {
	t.Helper()
	st := run.r.snap.Stages[i]
	from := run.r.snap.StartedAt
	for _, prev := range run.r.snap.Stages[:i] {
		from = from.Add(prev.Spec.Duration)
	}
	unix := func(tm time.Time) float64 { return float64(tm.UnixNano()) / 1e9 }
	// The stage's requests reach nginx from its start until a little after its end.
	pause := largestPause(run.arrivals, unix(from), unix(from.Add(st.Spec.Duration+200*time.Millisecond)))
	got := float64(st.Summary.Status["200"])
	tol := 3 + 0.01*want
	t.Logf("stage %d (%s for %s): %d sent, %.0f passed, limit_req allows %.0f ± %.1f (off by %+.0f); longest pause at nginx %s",
		i+1, st.Spec.Rate, st.Spec.Duration, st.Summary.Sent, got, want, tol, got-want, pause.Round(time.Millisecond))
	starved := run.limit.RatePerMin > 0 && pause.Seconds() > 3/run.limit.perSecond()
	upper := want + tol
	if starved {
		upper += run.limit.perSecond() * pause.Seconds()
	}
	switch {
	case got > upper:
		t.Errorf("stage %d (%s): %.0f answers passed, limit_req allows at most %.0f", i+1, st.Spec.Rate, got, upper)
	case got >= want-tol:
	case starved:
		t.Logf("stage %d: %.0f short, but nginx saw no request for %s (the machine was busy): leak lost, not a counting error", i+1, want-got, pause.Round(time.Millisecond))
	default:
		t.Errorf("stage %d (%s): %.0f answers passed, limit_req allows %.0f ± %.1f", i+1, st.Spec.Rate, got, want, tol)
	}
}

// The limit in these tests: 6000r/m (100/s: the per-second counts are easy to read) with seed
// 002's burst of 60. A burst that large also keeps the count exact when the machine is busy: the
// bucket only loses leak if no request reaches nginx for burst/rate = 600 ms.

// TestNginxLimitReqNodelay: rate=6000r/m burst=60 nodelay. Under the limit everything passes;
// the first stage above it gets rate × T + burst, the next (bucket already full) only rate × T;
// the counts equal nginx's access log.
func TestNginxLimitReqNodelay(t *testing.T) {
	l := nginxLimit{RatePerMin: 6000, Burst: 60, NoDelay: true}
	run := runThroughNginx(t, l, 128, `
[[stage]]
rate = "3000/m"
duration = "2s"
[[stage]]
rate = "250/s"
duration = "3s"
[[stage]]
rate = "400/s"
duration = "2s"
`)
	st := run.r.snap.Stages
	if len(st) != 3 {
		t.Fatalf("%d stages", len(st))
	}
	checkAllowed(t, run, 0, 100)                              // 50/s × 2 s, all under the limit
	checkAllowed(t, run, 1, l.perSecond()*3+float64(l.Burst)) // 100/s × 3 s + the empty bucket
	checkAllowed(t, run, 2, l.perSecond()*2)                  // 100/s × 2 s, bucket full on entry
	if run.limitReq["DELAYED"] != 0 {
		t.Errorf("nodelay, yet nginx delayed %d requests", run.limitReq["DELAYED"])
	}
	// Nothing waits in the bucket: the 200s are far from the burst/rate = 600 ms a delaying
	// limit_req would add (see TestNginxLimitReqDelay). A loose bound: a busy machine adds tens
	// of ms of its own.
	if ok := st[1].Summary.LatencyByOutcome["ok"]; ok.P99 > 200 {
		t.Errorf("nodelay: p99 of the 200s is %.1f ms; nothing should wait in the bucket", ok.P99)
	}
}

// TestNginxLimitReqDelay: without nodelay, the requests in the bucket are held until the rate
// allows them. The 200s of a stage above the limit wait about burst / rate (60 / 100/s = 600 ms),
// far above the same rate through nginx without limit_req; the counts are as with nodelay.
func TestNginxLimitReqDelay(t *testing.T) {
	base := runThroughNginx(t, nginxLimit{}, 128, stage("250/s", "2s"))
	baseOK := base.r.snap.Totals.LatencyByOutcome["ok"]

	l := nginxLimit{RatePerMin: 6000, Burst: 60}
	run := runThroughNginx(t, l, 128, stage("250/s", "3s"))
	st := run.r.snap.Stages[0]
	checkAllowed(t, run, 0, l.perSecond()*3+float64(l.Burst)+1) // +1: this stage makes the bucket
	if run.limitReq["DELAYED"] < int64(l.perSecond()*3) {
		t.Errorf("nginx delayed only %d requests; nearly every pass should have waited", run.limitReq["DELAYED"])
	}
	ok := st.Summary.LatencyByOutcome["ok"]
	wait := float64(l.Burst) / l.perSecond() * 1000 // ms
	t.Logf("200s' latency: p50 %.1f p90 %.1f p99 %.1f max %.1f ms; no-limit baseline p90 %.1f p99 %.1f ms; burst/rate = %.0f ms",
		ok.P50, ok.P90, ok.P99, ok.Max, baseOK.P90, baseOK.P99, wait)
	// Once the bucket is full (after 60 / (250 − 100) = 0.4 s) every pass waits between
	// (burst−1)/rate and burst/rate; the passes before that wait less, but they are under a
	// third of the stage, so p90 and p99 show the full wait.
	if ok.P90 < 0.8*wait || ok.P99 < 0.8*wait || ok.P99 > wait+150 {
		t.Errorf("p90 %.1f ms p99 %.1f ms of the 200s; want about burst/rate = %.0f ms", ok.P90, ok.P99, wait)
	}
	if baseOK.P99 > wait/4 {
		t.Errorf("the no-limit baseline's p99 is %.1f ms: too slow to tell the queueing apart", baseOK.P99)
	}
	// Service time (from the actual send) shows the same wait: it is nginx that holds them.
	if svc := st.Summary.Service; svc.P90 < 0.8*wait {
		t.Errorf("service p90 %.1f ms: the wait is nginx's, so it should show from the actual send too", svc.P90)
	}
	if limited := st.Summary.LatencyByOutcome["limited"]; limited.P99 > wait/2 {
		t.Errorf("the 429s' p99 is %.1f ms: rejections should be answered at once", limited.P99)
	}
}

// TestNginxStepRamp: seed 002's sweep, shortened: a ramp doubling from 3000r/m to 24000r/m
// (50/s, 100/s, 200/s, 400/s, 2 s each) across a 6000r/m limit. The limited share rises stage by
// stage, each stage passes what limit_req allows, and the counts equal nginx's.
func TestNginxStepRamp(t *testing.T) {
	l := nginxLimit{RatePerMin: 6000, Burst: 60, NoDelay: true}
	run := runThroughNginx(t, l, 128, `
[ramp]
from = "3000/m"
to = "24000/m"
factor = 2
every = "2s"
`)
	st := run.r.snap.Stages
	if len(st) != 4 {
		t.Fatalf("%d stages, want 4 (50, 100, 200, 400/s)", len(st))
	}
	r := l.perSecond()
	want := []float64{100, 200, 2*r + float64(l.Burst), 2 * r} // at the limit all pass; then the bucket fills
	prev := -1.0
	for i, s := range st {
		checkAllowed(t, run, i, want[i])
		share := float64(s.Summary.Limited) / float64(s.Summary.Completed)
		t.Logf("stage %d %s: %.1f%% limited", i+1, s.Spec.Rate, share*100)
		switch {
		case i < 2 && share > 0.01:
			t.Errorf("stage %d (%s, at most the limit): %.1f%% limited, want none", i+1, s.Spec.Rate, share*100)
		case i >= 2 && share <= prev:
			t.Errorf("stage %d (%s): limited share %.3f did not rise above the previous stage's %.3f", i+1, s.Spec.Rate, share, prev)
		}
		prev = share
	}
	var perSecond []float64
	for _, row := range run.r.snap.Timeline {
		if row.OK+row.Limited > 0 {
			perSecond = append(perSecond, float64(row.Limited)/float64(row.OK+row.Limited))
		}
	}
	t.Logf("limited share per second: %.2f", perSecond)
}

// TestNginxConfigExample: the example config is valid nginx as shipped (nginx -t), not only
// after the tests' substitutions.
func TestNginxConfigExample(t *testing.T) {
	t.Parallel()
	bin := requireNginx(t)
	prefix := t.TempDir()
	abs, err := filepath.Abs(nginxConfigPath)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-t", "-p", prefix+"/", "-c", abs, "-e", filepath.Join(prefix, "error.log")).CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -t %s: %v\n%s", nginxConfigPath, err, out)
	}
}
