package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/proctest"
	"github.com/rpcstress/rpcstress/internal/promtest"
)

// TestE2EPrometheus: a real Prometheus scrapes a run's --metrics-listen every second. Its
// rate(rpcstress_requests_total[10s]) in the middle of the run matches rpcstress's own
// achieved rate within 2 %, every series carries the run and the shard, and its last scrape
// (rpcstress waits for it after the run) holds exactly the snapshot's count. Serial: it
// asserts a rate.
func TestE2EPrometheus(t *testing.T) {
	promtest.Require(t)
	_, url := startNode(t, mocknode.Config{})
	listen := proctest.FreeAddr(t)
	prom := promtest.Start(t, listen)
	const rate, seconds = 400, 14
	p := writeProfile(t, url, 32, getBalance+stage(strconv.Itoa(rate)+"/s", strconv.Itoa(seconds)+"s"))
	// It watches a process too (its own: the mock node runs in it), for the dashboard's node CPU.
	r := runCLI(t, nil, p, "--metrics-listen", listen, "--shard", "1/1", "--watch-pid", strconv.Itoa(os.Getpid()))
	mustRun(t, r, exitOK)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// The middle of the run: its last 10 s window ends 2 s before the end.
	at := r.snap.StartedAt.Add((seconds - 2) * time.Second)
	got := query(ctx, t, prom, `sum by (run, shard) (rate(rpcstress_requests_total[10s]))`, at)
	own := r.snap.Stages[0].Summary.RPS
	if d := (got.Value - own) / own; d > 0.02 || d < -0.02 {
		t.Errorf("Prometheus's rate %.2f/s, rpcstress's achieved %.2f/s: %.2f%% apart", got.Value, own, d*100)
	}
	if got.Metric["run"] != "e2e" || got.Metric["shard"] != "1/1" {
		t.Errorf("labels %v, want run e2e and shard 1/1", got.Metric)
	}
	t.Logf("rate(rpcstress_requests_total[10s]) %.2f/s, achieved %.2f/s", got.Value, own)

	checkDashboard(ctx, t, prom, at)

	// last_over_time, not the bare series: once rpcstress has exited, Prometheus's next scrape
	// fails and marks every series stale, so an instant query at "now" can find none (CI did).
	// A range selection skips the staleness markers and keeps the last scraped value.
	final := query(ctx, t, prom, `sum(last_over_time(rpcstress_requests_total[5m]))`, time.Now())
	if final.Value != float64(r.snap.Totals.Completed) {
		t.Errorf("Prometheus's last scrape counts %v requests, the snapshot %d: the final numbers were not scraped\nstderr: %s",
			final.Value, r.snap.Totals.Completed, r.stderr)
	}
}

// checkDashboard evaluates every query of examples/grafana's dashboard as Grafana would (the
// run variable set to the run, $__rate_interval to 10s) against the Prometheus that scraped
// the run: each must parse and show the run, but for the errors, which a clean run has none of.
func checkDashboard(ctx context.Context, t *testing.T, prom *promtest.Server, at time.Time) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("examples", "grafana", "dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("dashboard.json: %v", err)
	}
	vars := strings.NewReplacer("$run", "e2e", "$__rate_interval", "10s")
	n := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			n++
			res, err := prom.Query(ctx, vars.Replace(tg.Expr), at)
			switch {
			case err != nil:
				t.Errorf("panel %q: %v", p.Title, err)
			case len(res) == 0 && !strings.Contains(tg.Expr, "errors_total"):
				t.Errorf("panel %q: %s shows nothing of the run", p.Title, tg.Expr)
			}
		}
	}
	if n < 10 {
		t.Errorf("the dashboard has only %d queries", n)
	}
	promtest.CheckConfig(ctx, t, filepath.Join("examples", "grafana", "prometheus.yml"))
}

// query runs an instant query that must give one series.
func query(ctx context.Context, t *testing.T, prom *promtest.Server, q string, at time.Time) promtest.Sample {
	t.Helper()
	res, err := prom.Query(ctx, q, at)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("%s: %d series, want 1: %v\nprometheus: %s", q, len(res), res, prom.Log())
	}
	return res[0]
}

// TestE2EMetricsListenBadAddress: a --metrics-listen that cannot be served is refused before
// anything is sent (and before --start-at waits), with exit 2 and what to write instead.
func TestE2EMetricsListenBadAddress(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	p := writeProfile(t, url, 4, getBalance+stage("100/s", "1s"))
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	rows := []struct {
		args []string
		want string
	}{
		{[]string{"--metrics-listen", "9464"}, `--metrics-listen "9464" is not host:port: write e.g. 127.0.0.1:9464`}, // a port alone
		{[]string{"--metrics-listen", taken.Addr().String()}, "is in use by another program: choose another port"},    // taken
		{[]string{"--metrics-listen", "9464", "--start-at", later}, `"9464" is not host:port`},                        // told before the wait
	}
	for _, r := range rows {
		// Should the address be checked after the wait, a signal ends it: a failure, not a hang.
		run := runCLI(t, signalAfter(syscall.SIGINT, 3*time.Second), append([]string{p}, r.args...)...)
		if run.code != exitUsage || !strings.Contains(run.stderr, r.want) || run.snap != nil {
			t.Errorf("%v: exit %d, snapshot %v, stderr %q; want exit 2 saying %q and no snapshot", r.args, run.code, run.snap != nil, run.stderr, r.want)
		}
	}
	if n := node.Stats().Requests; n != 0 {
		t.Errorf("the node got %d requests: a bad address must stop the run before it sends", n)
	}
}
