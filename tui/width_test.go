package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// richSnapshot is a run with everything a report can hold, at sizes that make lines long:
// six stages (the last two never ran), five requests with long names, five statuses, six
// transport errors, JSON-RPC errors with long and wide (CJK) messages, counts in the millions,
// latencies of seconds, send lag, long events, thresholds that fail with notes, and a search.
func richSnapshot() *engine.Snapshot {
	s := testSnapshot()
	big := func(sum *engine.Summary, f int64) {
		sum.Scheduled, sum.Sent, sum.Completed = 1_234_567*f, 1_234_000*f, 1_233_990*f
		sum.Inflight, sum.Dropped = 10*f, 567*f
		sum.Status = map[string]int64{"200": 1_000_000 * f, "429": 200_000 * f, "502": 11_000 * f, "503": 12_000 * f, "504": 990 * f}
		sum.Errors = map[string]int64{"timeout": 5000 * f, "refused": 3000 * f, "reset": 1000 * f, "eof": 500 * f,
			"toolarge": 300 * f, "malformed": 200 * f}
		sum.RPCErrors = map[string]int64{"-32005": 123_456 * f, "-32601": 1 * f, "-32602": 99_999 * f}
		sum.OK, sum.Limited, sum.Failed = 876_543*f, 323_456*f, 33_991*f
		sum.RPS = 19_876.5
		sum.Latency = engine.Percentiles{Min: 0.084, P50: 123.4, P75: 1234.5, P90: 12_345, P95: 23_456, P99: 45_678, P999: 59_999, Max: 60_000, Mean: 4567.8}
		sum.Service, sum.SendLag = sum.Latency, sum.Latency
		sum.LatencyByOutcome = map[string]engine.Percentiles{"ok": sum.Latency, "limited": sum.Latency, "failed": sum.Latency}
		sum.BytesIn, sum.BytesOut = 123_456_789_012, 98_765_432_109
		sum.Connections = engine.Connections{Dialed: 123_456, DialMean: 1234.5, DialMax: 59_999}
	}
	big(&s.Totals, 1)
	s.Totals.ByRequest = map[string]engine.Summary{}
	for _, name := range []string{"getBalance", "getBalance#2", "eth_getBlockByNumber+eth_getTransactionReceipt x10",
		"POST /v1/some/very/long/path/of/a/rest/api/endpoint", "残高を取得する非常に長い名前のリクエスト"} {
		r := s.Totals
		r.ByRequest = nil
		s.Totals.ByRequest[name] = r
	}
	rates := []engine.Rate{250, 500, 1000, 2000, 256, 4000}
	s.Stages = nil
	for i, r := range rates {
		st := engine.StageStats{Index: i, Spec: engine.Stage{Rate: r, Duration: 90 * time.Minute}}
		if i < 4 {
			big(&st.Summary, 1)
			st.Summary.DurationS = 5399.9
			if i == 3 {
				st.Summary.DurationS = 1234.5 // stopped in this stage
			}
		}
		s.Stages = append(s.Stages, st)
	}
	s.RPCMessages = map[string]string{
		"-32005": "request limit reached: the node allows 10 requests per second per key; upgrade your plan at https://example.com/pricing/plans/enterprise",
		"-32601": "the method eth_getBlockByNumberAndAlsoSomethingElse does not exist/is not available",
		"-32602": "無効なパラメータ：アカウントのアドレスは44文字のbase58文字列でなければなりません",
	}
	s.RateLimitHeaders = map[string]string{"X-RateLimit-Policy-With-A-Long-Name": strings.Repeat("100;w=1;burst=60;policy=sliding-window ", 4)}
	s.Events = []engine.Event{
		{T: 0, Kind: "stage", Detail: "stage 1/6: 250/s for 1h30m0s"},
		{T: 1234.5, Kind: "rate", Detail: "target 2200/s (set by hand: ↑ pressed three times in a row, from 2000/s)"},
		{T: 5400, Kind: "stop", Detail: "signal:SIGINT: stopped by the user while the stage was still running; in-flight requests drained for 5s"},
	}
	s.SaturatedSeconds = 12345
	s.EndReason = "signal:SIGINT"
	s.Thresholds = []engine.ThresholdResult{
		{Metric: "p999", Condition: "< 50ms", Op: "<", Bound: 50, Unit: "ms", Measured: 59_999, Margin: -59_949, Where: "/a/very/long/path/to/profiles/production-mainnet-getBalance.toml:113"},
		{Metric: "limited", Stage: 5, Condition: "< 1%", Op: "<", Note: "stage 5 never ran: nothing to measure", Where: "/x/th.toml:19"},
		{Metric: "rps", Stage: 4, Condition: ">= 19876.5", Op: ">=", Bound: 19876.5, Unit: "/s", Measured: 19876.5, Pass: true, Where: "th.toml:20"},
		{Metric: "failed", Condition: "== 0", Op: "==", Unit: "count", Measured: 33_991, Margin: -33_991, Where: "th.toml:21"},
		{Metric: "dropped", Condition: "< 0", Op: "<", Unit: "count", Measured: 0, Where: "th.toml:22"},
	}
	s.Search = richSearch()
	return s
}

// richSearch is a search whose probes fail with several breaches at once.
func richSearch() *engine.SearchResult {
	pr := testSearchProgress()
	probes := append(pr.Probes,
		probeFixture(5, "estimate", 15360, 12345.6, 45678, 99.9, "fail", "p999 45678 ms > 50 ms",
			"limited 99.9% > 1%", "failed 12.5% > 0.1% (1234 never answered)",
			"backlog: answered 9876.5/s of 15360/s sent (a queue is building)",
			"tester: saturated for 3 of 10 s (the generator fell behind its schedule)"),
		probeFixture(6, "confirm", 1050, 1000, 1.17, 4.76, "fail", "limited 4.76% > 1%"))
	probes[2].Superseded = true
	pr.SLO.LatencyMs, pr.SLO.Percentile, pr.SLO.MinSuccessPct = 50, 99.9, 99
	return &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: probes, EndReason: "budget", ElapsedS: 299.9,
		Answer: engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 1050, GapPct: 5,
			Text: "1000/s met the SLO (goodput 1000 ok/s); 1050/s did not: limited 4.76% > 1%; the time " +
				"budget ran out before the limit was bracketed within the precision",
			Breaches: probes[4].Breaches},
		Limiter: &engine.LimiterEstimate{Kind: "token bucket", Rate: 1000, RateErr: 0.67, Burst: 60, BurstErr: 2.6,
			BurstFrom: "burst probe", Delay: "delay (answers within the burst are held to the rate, like nginx without nodelay)",
			Nginx: "rate=1000r/s burst=60", Notes: []string{strings.Repeat("a limiter that delays instead of rejecting looks just like this ", 3)}}}
}

// TestTextOutputsFitWidth: at 80 columns (a pipe) no line of any text output is wider than 80
// terminal cells, whatever the run holds; on wider terminals, none is wider than the terminal.
func TestTextOutputsFitWidth(t *testing.T) {
	for _, width := range []int{textfmt.DefaultWidth, 100, 132} {
		outputs := textOutputs(t, width)
		for name, text := range outputs {
			t.Run(fmt.Sprintf("%s at %d", name, width), func(t *testing.T) {
				if strings.TrimSpace(text) == "" {
					t.Fatal("no output")
				}
				checkWidth(t, text, width)
			})
		}
	}
}

// textOutputs writes every text output of rpcstress at width: the report of a rich run, a
// compare of three runs, the headless lines of a run and of a search, and a search's report.
func textOutputs(t *testing.T, width int) map[string]string {
	t.Helper()
	out := map[string]string{}
	write := func(name string, f func(*bytes.Buffer) error) {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = b.String()
	}
	rich := richSnapshot()
	write("report", func(b *bytes.Buffer) error { return WriteReport(b, rich, width) })
	slower, short := richSnapshot(), richSnapshot()
	scaleLatency(&slower.Totals, 1.5)
	short.Stages = short.Stages[:2]
	runs := []CompareRun{{File: "runs/production-mainnet-getBalance-20261123T093020Z.json", Snapshot: rich},
		{File: "/home/operator/benchmarks/2026/november/runs/getBalance-20261123T103020Z.json", Snapshot: slower},
		{File: "c.json", Snapshot: short}}
	write("compare of 3", func(b *bytes.Buffer) error { return WriteCompare(b, runs, width) })
	write("compare of 2", func(b *bytes.Buffer) error { return WriteCompare(b, runs[:2], width) })
	write("headless lines", func(b *bytes.Buffer) error {
		p := NewLinePrinter(b, width)
		p.Header("production-mainnet-getBalance-with-a-long-name", "https://mainnet.example.com/v1/a/long/path/of/the/node", engine.ModeOpen)
		row := richRow()
		p.Update(&engine.Stats{Timeline: []engine.Row{row}, Events: rich.Events, Done: true})
		return p.Err()
	})
	write("search lines", func(b *bytes.Buffer) error {
		p := NewSearchLinePrinter(b, width)
		pr := testSearchProgress()
		pr.SLO = rich.Search.SLO
		p.Header("production-mainnet-getBalance-with-a-long-name", "https://mainnet.example.com/v1/a/long/path/of/the/node", pr)
		p.Update(&search.Progress{Probes: rich.Search.Probes, Current: &search.Current{Phase: "burst", Rate: 100000, Settle: time.Minute, Measure: time.Second}})
		p.Final(rich.Search)
		return p.Err()
	})
	write("search report", func(b *bytes.Buffer) error { return WriteSearch(b, rich.Search, width) })
	return out
}

// richRow is a second at the extremes: every column at its widest, and saturated.
func richRow() engine.Row {
	return engine.Row{T: 9999, Stage: 11, TargetRate: 256, RPS: 99999, OK: 99999, Limited: 99999, Failed: 99999,
		Status: map[string]int64{"200": 999_999}, RPCErrors: map[string]int64{"-32005": 99_999},
		Inflight: 99999, Dropped: 99999, Saturated: true,
		Latency: engine.RowLatency{P50: 59_999, P90: 59_999, P99: 59_999, Max: 60_000}}
}
