package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/internal/proctest"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// Issue 19: everything but the wire works unchanged on each transport. These tests run the
// same profiles through the CLI over every transport the mock node speaks (nodetest.Transports)
// and hold what each way of reading a run says (books, thresholds, the headless lines, the
// --metrics-listen series, report, merge, compare) to the node's own counts.

// transportMix is the request section of these runs: a call and a batch of three with ids of
// their own (over WebSocket they go out with the transport's ids instead).
const transportMix = getBalance + `
[[request]]
name = "batch"
body = '[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"},{"jsonrpc":"2.0","id":"x","method":"eth_chainId"}]'
`

// transportThresholds are judged on counts only, so they hold however busy the machine is: a
// 300/s stage against a limit of 100/s is limited about two times in three.
const transportThresholds = `
[thresholds]
failed = "== 0"
limited = "> 20%"
ok = "> 90%"
`

// TestE2ETransports: per transport (HTTP/1.1, WebSocket, h2c), side by side, a run of 300/s
// against a limit of 100/s judged by [thresholds] (two hold, one fails: exit 1), its books,
// headless lines and --metrics-listen series equal to the node's counts and the snapshot's,
// its report, and two shards merged; then the runs over HTTP/1.1 and WebSocket compared.
func TestE2ETransports(t *testing.T) {
	// Serial: it wants every request of a 300/s plan answered and the runs' durations equal (so
	// compare shows counts); beside the parallel tests a busy machine dropped requests and
	// stretched one run's drain (compare then shows shares).
	var mu sync.Mutex
	files, dir := map[string]string{}, t.TempDir() // a subtest's own folder goes with it
	t.Run("each", func(t *testing.T) {
		for _, tr := range nodetest.Transports() {
			t.Run(tr.Name, func(t *testing.T) {
				t.Parallel()
				snap, err := os.ReadFile(transportRun(t, tr))
				if err != nil {
					t.Fatal(err)
				}
				transportShards(t, tr)
				mu.Lock()
				defer mu.Unlock()
				files[tr.Name] = writeFile(t, dir, tr.Name+".json", string(snap))
			})
		}
	})
	if t.Failed() || files["http"] == "" || files["ws"] == "" {
		return
	}
	r := runVerb(t, "compare", files["http"], files["ws"])
	if r.code != exitOK {
		t.Fatalf("compare exit %d: %s", r.code, r.stderr)
	}
	a, b := loadRun(t, files["http"]), loadRun(t, files["ws"])
	totals := r.stdout[:strings.Index(r.stdout, "Stage 1 · 300/s")]
	// Counts when the runs lasted as long; shares (ok and limited of the answers, JSON-RPC
	// errors of the calls) when a busy machine stretched one run's drain past compare's 2 %
	// (CI's -race did, by 0.1 s).
	ta, tb := a.Totals, b.Totals
	byShare := strings.Contains(totals, "lasted differently")
	for _, row := range []struct {
		name           string
		a, b, aOf, bOf int64
	}{
		{"ok", ta.OK, tb.OK, ta.Completed, tb.Completed},
		{"limited", ta.Limited, tb.Limited, ta.Completed, tb.Completed},
		{"rpc errors", 0, tb.RPCErrors["-32005"], ta.Calls.Completed(), tb.Calls.Completed()},
	} {
		name, want := row.name, func(n, _ int64) string { return strconv.FormatInt(n, 10) }
		if byShare {
			name, want = row.name+" %", func(n, of int64) string { return textfmt.Percent(100 * float64(n) / float64(of)) }
		}
		f := compareRow(totals, name)
		if len(f) < 2 || f[0] != want(row.a, row.aOf) || f[1] != want(row.b, row.bOf) {
			t.Errorf("compare's %s row %q; want A %s, B %s\n%s", name, f, want(row.a, row.aOf), want(row.b, row.bOf), r.stdout)
		}
	}
	// Over WebSocket the limiter's -32005s are JSON-RPC errors inside 200s: they are limited,
	// and judged so on that row only.
	if f := compareRow(totals, "rpc errors"); slices.Contains(f, "worse") || compareRow(totals, "2xx") != nil {
		t.Errorf("compare judges the WebSocket run's JSON-RPC errors (%q) or shows 2xx\n%s", f, r.stdout)
	}
}

// compareRow is the figures of the row name of a block of compare's output; nil when absent.
func compareRow(block, name string) []string {
	for line := range strings.Lines(block) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), name+" "); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}

// transportRun runs transportMix over tr at 300/s for 2 s against a node limited to 100/s,
// judged by transportThresholds and scraped on --metrics-listen, holds everything it wrote
// to the node's counts, and returns its snapshot's path.
func transportRun(t *testing.T, tr nodetest.Transport) string {
	node, url := startNode(t, tr.Node(mocknode.Config{Rate: 100, Burst: 10, NoDelay: true}))
	p := writeProfile(t, tr.URL(url), 8, tr.Profile()+transportMix+stage("300/s", "2s")+transportThresholds)
	addr := proctest.FreeAddr(t)
	scraped := scrapeWhile(t, "http://"+addr+"/metrics")
	r := runCLI(t, nil, p, "--metrics-listen", addr)
	final := scraped()
	mustRun(t, r, exitThresholds)
	tot, st := r.snap.Totals, node.Stats()

	answered, limited := tr.Answered(st)
	if tot.Completed != 600 || tot.Completed != answered || tot.Limited != limited || tot.OK+tot.Limited != tot.Completed {
		t.Errorf("completed %d ok %d limited %d; the node answered %d, limited %d", tot.Completed, tot.OK, tot.Limited, answered, limited)
	}
	if tot.Calls.OK != st.Calls {
		t.Errorf("calls ok %d, the node answered %d", tot.Calls.OK, st.Calls)
	}

	th := r.snap.Thresholds
	if len(th) != 3 || !th[0].Pass || !th[1].Pass || th[2].Pass || !strings.Contains(r.stdout, "Thresholds ✗ 1 of 3 failed") {
		t.Errorf("thresholds %+v; want failed and limited holding, ok failing\n%s", th, r.stdout)
	}

	lim, fail := headlessSums(t, r.stdout)
	if lim != tot.Limited || fail != tot.Failed || !strings.Contains(r.stdout, "→ "+tr.URL(url)) {
		t.Errorf("the headless lines add up to %d limited, %d failed; the run %d, %d\n%s", lim, fail, tot.Limited, tot.Failed, r.stdout)
	}

	for series, want := range map[string]int64{
		`rpcstress_requests_total{outcome="ok"}`:      tot.OK,
		`rpcstress_requests_total{outcome="limited"}`: tot.Limited,
		`rpcstress_calls_sent_total{}`:                tot.Calls.Sent,
		`rpcstress_connections_dialed_total{}`:        tot.Connections.Dialed,
		`rpcstress_connections_redialed_total{}`:      tot.Connections.Redialed,
	} {
		if got, ok := final[series]; !ok || got != float64(want) {
			t.Errorf("the last scrape has %s %v (there: %v), the snapshot %d", series, got, ok, want)
		}
	}

	rep := runVerb(t, "report", r.out)
	dial := fmt.Sprintf("connections  %d dialed", tot.Connections.Dialed)
	if rep.code != exitOK || !strings.Contains(rep.stdout, dial) || !strings.Contains(rep.stdout, "Invariant ✓") {
		t.Errorf("report: exit %d, want %q and the invariant\n%s%s", rep.code, dial, rep.stdout, rep.stderr)
	}
	// Over WebSocket the limiter's -32005s are inside answers that are no HTTP answers.
	if strings.Contains(rep.stdout, "inside HTTP answers") {
		t.Errorf("the report calls the answers HTTP answers:\n%s", rep.stdout)
	}
	return r.out
}

// transportShards runs a profile over tr as two shards side by side and merges them: the
// merged run's books balance and equal the node's counts.
func transportShards(t *testing.T, tr nodetest.Transport) {
	node, url := startNode(t, tr.Node(mocknode.Config{}))
	runs := runShards(t, writeProfile(t, tr.URL(url), 4, tr.Profile()+transportMix+stage("200/s", "1s")))
	for i, r := range runs {
		mustRun(t, r, exitOK)
		if r.snap.Totals.Completed != 100 {
			t.Errorf("shard %d completed %d, want 100", i+1, r.snap.Totals.Completed)
		}
	}
	out := filepath.Join(t.TempDir(), "merged.json")
	if r := runVerb(t, "merge", "-o", out, runs[0].out, runs[1].out); r.code != exitOK {
		t.Fatalf("merge exit %d: %s", r.code, r.stderr)
	}
	m := loadRun(t, out)
	answered, _ := tr.Answered(node.Stats())
	dialed := runs[0].snap.Totals.Connections.Dialed + runs[1].snap.Totals.Connections.Dialed
	if m.Totals.Completed != 200 || m.Totals.OK != answered || m.Totals.Connections.Dialed != dialed {
		t.Errorf("merged: completed %d ok %d dialed %d; the node answered %d, the shards dialed %d", m.Totals.Completed, m.Totals.OK, m.Totals.Connections.Dialed, answered, dialed)
	}
}

// headlessRow is a per-second line of the headless output: "   1s   300/s  300.0 …".
var headlessRow = regexp.MustCompile(`^\s*\d+s\s`)

// headlessSums adds up the lim and fail columns of every per-second line of out.
func headlessSums(t *testing.T, out string) (lim, fail int64) {
	t.Helper()
	for line := range strings.Lines(out) {
		if !headlessRow.MatchString(line) {
			continue
		}
		f := strings.Fields(line) // t target rps p50 p90 p99 2xx lim fail infl [drop] [SATURATED]
		if len(f) < 10 {
			t.Fatalf("a per-second line with %d columns: %q", len(f), line)
		}
		lim += atoi(t, f[7])
		fail += atoi(t, f[8])
	}
	return lim, fail
}

// atoi reads a count as the lines print it (with thousands separators).
func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// scrapeWhile scrapes url every 100 ms, as Prometheus would, from now until the returned
// function is called, which returns the last scrape's samples by series (name{labels}, the run,
// shard and target labels left out). Scraping during the run is what makes rpcstress wait, after it,
// for a scrape of its final numbers.
func scrapeWhile(t *testing.T, url string) func() map[string]float64 {
	t.Helper()
	stop, done := make(chan struct{}), make(chan map[string]float64)
	go func() {
		var last map[string]float64
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if s, err := scrape(url); err == nil {
				last = s
			}
			select {
			case <-stop:
				done <- last
				return
			case <-tick.C:
			}
		}
	}()
	return func() map[string]float64 {
		close(stop)
		return <-done
	}
}

// TestE2EWebSocketRedials: a node dropping WebSocket connections every 40 messages: the calls
// in flight on them count ws_closed, the books still balance against the node's answers, and
// the re-dials are said where the user reads them: a headless line as they grow (its last
// figure the snapshot's), the report's connections line.
func TestE2EWebSocketRedials(t *testing.T) {
	t.Parallel() // counts only
	node, url := startNode(t, mocknode.Config{Latency: 5 * time.Millisecond, WSDropEvery: 40})
	p := writeProfile(t, nodetest.WSURL(url), 2, "streams = 4\n"+getBalance+stage("200/s", "2s"))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	tot, st := r.snap.Totals, node.Stats()
	c := tot.Connections
	if st.WS.Drops == 0 || c.Redialed == 0 || tot.Status["200"] != st.WS.Messages || tot.Errors["ws_closed"] < st.WS.Dropped {
		t.Fatalf("node dropped %d connections (%d messages); re-dialed %d, answers %d of the node's %d, ws_closed %d",
			st.WS.Drops, st.WS.Dropped, c.Redialed, tot.Status["200"], st.WS.Messages, tot.Errors["ws_closed"])
	}
	// The line is printed when the re-dials grow; its "(of N dialed)" is the dials at that
	// moment, and a re-dial under way is counted before its dial ends: only the re-dials
	// must equal the snapshot's.
	last := ""
	for line := range strings.Lines(r.stdout) {
		if _, after, ok := strings.Cut(line, "connections re-dialed: "); ok {
			last, _, _ = strings.Cut(strings.TrimSpace(after), " (of ")
		}
	}
	if want := strconv.FormatInt(c.Redialed, 10); last != want {
		t.Errorf("the last re-dial line says %q, the snapshot %q\n%s", last, want, r.stdout)
	}
	if want := fmt.Sprintf("%d re-dialed", c.Redialed); !strings.Contains(r.stdout, want) {
		t.Errorf("the report lacks %q:\n%s", want, r.stdout)
	}
}
