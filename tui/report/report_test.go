package report

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// written is what write writes; the test fails when it fails.
func written(t *testing.T, write func(io.Writer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// reportText is the text report of s at the default width.
func reportText(t *testing.T, s *engine.Snapshot) string {
	t.Helper()
	return written(t, func(w io.Writer) error { return WriteReport(w, s, 0) })
}

// checkContains fails when out (what names it) lacks any of wants, and says which.
func checkContains(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	var missing []string
	for _, want := range wants {
		if !strings.Contains(out, want) {
			missing = append(missing, want)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%s lacks %q:\n%s", what, missing, out)
	}
}

func TestWriteReportGolden(t *testing.T) {
	out := reportText(t, fixture.Snapshot())
	golden.RequireEqual(t, []byte(out))
	fixture.CheckPlainAndNarrow(t, out)
}

func TestWriteReportBrokenInvariant(t *testing.T) {
	s := fixture.Snapshot()
	s.Totals.Sent = 2480              // 10 requests vanished between scheduled and sent
	s.Stages[1].Summary.Completed = 1 // and a stage lost its outcomes
	out := reportText(t, s)
	checkContains(t, "the report", out, "Invariant ✗",
		"✗ scheduled 2500 ≠ sent 2480 + dropped 10",
		"✗ sent 2480 ≠ completed 2485 + inflight 5",
		"✗ stage 2: sent 1990 ≠ completed 1 + inflight 5")
	if strings.Contains(out, "✓") {
		t.Errorf("a broken invariant must not show ✓:\n%s", out)
	}
}

func TestWriteReportPartialSnapshot(t *testing.T) {
	// A run cut short before it ended: no profile, no end time, nothing completed.
	s := fixture.Snapshot()
	s.Profile = nil
	s.EndedAt = time.Time{}
	checkContains(t, "the report", reportText(t, s), "rpcstress report: (unnamed)", "partial run")
}

func TestWriteReportWriteError(t *testing.T) {
	err := WriteReport(fixture.FailingWriter{}, fixture.Snapshot(), 0)
	if !errors.Is(err, fixture.ErrDiskFull) {
		t.Fatalf("WriteReport error = %v, want it to wrap %v", err, fixture.ErrDiskFull)
	}
}

func TestWriteReportNil(t *testing.T) {
	if err := WriteReport(&bytes.Buffer{}, nil, 0); err == nil {
		t.Fatal("WriteReport(nil) = nil, want an error")
	}
}

// TestReportDurationIsStartToEnd: the header's duration is the run's, from start to end. A
// find-limit run's totals count only its probes' measured windows (21 s of a 29 s search): the
// header said 21 s.
func TestReportDurationIsStartToEnd(t *testing.T) {
	s := fixture.Snapshot()
	s.Search = fixture.RichSearch()
	s.Totals.DurationS = 21
	s.EndedAt = s.StartedAt.Add(29 * time.Second)
	checkContains(t, "the report's header", reportText(t, s), "duration    29s\n")
	checkContains(t, "the HTML page's header", writeHTMLPage(t, s), "<td>duration</td><td>29s</td>")
}

// TestHTMLDrawsTheReportsTables: the page draws the text report's own tables, so it says what
// the text says: a stage that never ran reads so across its columns (its zeros would read as a
// 0 ms latency), the tester's send lag has its latency row, a snapshot saved while the run went
// balances its books with the requests still queued, and a merged shard is named.
func TestHTMLDrawsTheReportsTables(t *testing.T) {
	s := fixture.Snapshot()
	s.Stages = append(s.Stages, engine.StageStats{Index: 2, Spec: engine.Stage{Rate: 400, Duration: 8 * time.Second}})
	s.Totals.SendLag = engine.Percentiles{P50: 0.4, Max: 1.2}
	s.Totals.Queued, s.Totals.Scheduled = 7, s.Totals.Scheduled+7
	s.Shard, s.Merged = "1/2", []string{"a.json", "b.json"}
	books := "scheduled 2507 = sent 2490 + dropped 10 + queued 7"
	checkContains(t, "the page", writeHTMLPage(t, s),
		`<td class="num">3</td><td class="num">400/s</td><td colspan="10">did not run (planned 8s)</td>`,
		"<td>send lag</td>", strings.ReplaceAll(books, "+", "&#43;"), "Invariant ✓", "<td>shard</td><td>1/2</td>", "<td>merged from</td><td>a.json, b.json</td>")
	checkContains(t, "the report", reportText(t, s), "did not run (planned 8s)", "send lag", books,
		"shard        1/2", "merged from  a.json, b.json")
}

// TestTextOutputsFitWidth: at 80 columns (a pipe) no line of any text report is wider than 80
// terminal cells, whatever the run holds; on wider terminals, none is wider than the terminal.
// (The headless lines' are tui.TestLinesFitWidth.)
func TestTextOutputsFitWidth(t *testing.T) {
	fixture.CheckOutputsFit(t, textOutputs)
}

// textOutputs writes every text report at width: the report of a rich run, a compare of three
// runs and of two, and a search's report.
func textOutputs(t *testing.T, width int) map[string]string {
	t.Helper()
	out := map[string]string{}
	write := func(name string, f func(io.Writer) error) { out[name] = written(t, f) }
	rich := fixture.RichSnapshot()
	write("report", func(b io.Writer) error { return WriteReport(b, rich, width) })
	slower, short := fixture.RichSnapshot(), fixture.RichSnapshot()
	fixture.ScaleLatency(&slower.Totals, 1.5)
	short.Stages = short.Stages[:2]
	runs := []CompareRun{{File: "runs/production-mainnet-getBalance-20261123T093020Z.json", Snapshot: rich},
		{File: "/home/operator/benchmarks/2026/november/runs/getBalance-20261123T103020Z.json", Snapshot: slower},
		{File: "c.json", Snapshot: short}}
	write("compare of 3", func(b io.Writer) error { return WriteCompare(b, runs, width) })
	write("compare of 2", func(b io.Writer) error { return WriteCompare(b, runs[:2], width) })
	write("search report", func(b io.Writer) error { return WriteSearch(b, rich.Search, width) })
	writeTargetsOutputs(t, width, out)
	// A watched run, its first process with a long name and its series with long labels.
	watched, again := fixture.WatchedSnapshot(), fixture.WatchedSnapshot()
	watched.Watch.Procs[0].Label = strings.Repeat("very-long-process-name-", 4)
	watched.Watch.Metrics.Series[1].Selector = `rpc_duration_all_count{method="eth_getBlockByNumber",status="success",transport="http"}`
	write("watched report", func(b io.Writer) error { return WriteReport(b, watched, width) })
	// A watched run whose node's metrics never answered.
	unscraped := fixture.WatchedSnapshot()
	for i := range unscraped.Watch.Stages {
		unscraped.Watch.Stages[i].Series = nil
	}
	unscraped.Watch.Metrics.Failures, unscraped.Watch.Metrics.LastError = 20, strings.Repeat("connection refused ", 10)
	write("unscraped report", func(b io.Writer) error { return WriteReport(b, unscraped, width) })
	write("watched compare", func(b io.Writer) error {
		return WriteCompare(b, []CompareRun{{File: "a.json", Snapshot: watched}, {File: "b.json", Snapshot: again}}, width)
	})
	return out
}

// TestWriteReportTargetsGolden: a run of two targets reads as the targets side by side per
// stage with a B/A row, the answers compared and each kept mismatch as a diff, then each
// target's sections, then the run's events; at 80 columns, plain text.
func TestWriteReportTargetsGolden(t *testing.T) {
	out := reportText(t, fixture.TargetsSnapshot())
	golden.RequireEqual(t, []byte(out))
	fixture.CheckPlainAndNarrow(t, out)
}

// TestWriteReportTargetsSections: what each part of a report of several targets holds, and
// what it leaves out: the B/A row is for two targets only, the pairs table for more than one
// pair; each target's sections come once, with its own numbers; the run's events once.
func TestWriteReportTargetsSections(t *testing.T) {
	two := reportText(t, fixture.TargetsSnapshot())
	checkContains(t, "the report of two targets", two,
		"  target A    geth    http://127.0.0.1:8899\n  target B    erigon  http://127.0.0.1:8545",
		"              B erigon   50.0   497     0     3  2.99  7.78  21.2\n              B/A        1.00                    1.60  1.60  1.60",
		"━━ Target A: geth  http://127.0.0.1:8899", "━━ Target B: erigon  http://127.0.0.1:8545", "-32000      3   0.1%  header not found",
		`     result.timestamp  "0x6743a1b2"  "0x6743a1b9"`, "     result.miner           \"0x000000000000000000000…  (absent)")
	if n := strings.Count(two, "\nEvents\n"); n != 1 {
		t.Errorf("events shown %d times, want once for the run", n)
	}
	if n := strings.Count(two, "\nInvariant ✓"); n != 2 {
		t.Errorf("invariant shown %d times, want once per target", n)
	}
	if strings.Contains(two, "per pair") {
		t.Error("two targets are one pair: no table per pair")
	}
	judged := fixture.TargetsSnapshot()
	judged.Thresholds = []engine.ThresholdResult{
		{Metric: "p99", Condition: "< 30ms", Op: "<", Bound: 30, Unit: "ms", Measured: 22.8, Pass: true, Margin: 7.2, Where: "p.toml:9", Target: "geth"},
		{Metric: "p99", Condition: "< 30ms", Op: "<", Bound: 30, Unit: "ms", Measured: 36.5, Margin: -6.5, Where: "p.toml:9", Target: "erigon"},
		{Metric: "answers_mismatch", Condition: "== 0", Op: "==", Unit: "count", Measured: 35, Margin: -35, Where: "p.toml:10"}}
	checkContains(t, "the thresholds of two targets", reportText(t, judged), "Thresholds ✗ 2 of 3 failed",
		"✓ pass  geth: p99", "✗ FAIL  erigon: p99", "✗ FAIL  answers_mismatch")
	three := reportText(t, fixture.RichTargetsSnapshot(3))
	checkContains(t, "the report of three targets", three, "Answers compared per pair of targets",
		"a request matches when every target's answer does", "━━ Target C: erigon-archive-3")
	if strings.Contains(three, "B/A") {
		t.Error("three targets have no B/A row")
	}
}

// TestWriteReportTargetsWithoutAnswers: a run of several targets that compared no answers has
// no answers section, and a comparison of nothing says so.
func TestWriteReportTargetsWithoutAnswers(t *testing.T) {
	s := fixture.TargetsSnapshot()
	s.Answers = nil
	if out := reportText(t, s); strings.Contains(out, "Answers") {
		t.Errorf("a run without comparison shows answers:\n%s", out)
	}
	s = fixture.TargetsSnapshot()
	s.Answers.Totals, s.Answers.ByRequest, s.Answers.Examples = answers.Counts{}, nil, nil
	checkContains(t, "the report", reportText(t, s), "Answers compared: none: no request was answered by every target")
}

// writeTargetsOutputs adds the reports of runs of 2, 3 and 4 targets with long names and big
// numbers to what TestTextOutputsFit checks.
func writeTargetsOutputs(t *testing.T, width int, out map[string]string) {
	for _, n := range []int{2, 3, 4} {
		s := fixture.RichTargetsSnapshot(n)
		out["report of "+string(rune('0'+n))+" targets"] = written(t, func(w io.Writer) error { return WriteReport(w, s, width) })
		if n == 4 {
			continue // four make wider lines, as four runs do: cut numbers would say nothing
		}
		out["compare of "+string(rune('0'+n))+" targets"] = written(t, func(w io.Writer) error {
			return WriteCompareTargets(w, CompareRun{File: "/home/operator/benchmarks/2026/november/runs/side-by-side.json", Snapshot: s}, width)
		})
	}
	three, four := fixture.RichTargetsSnapshot(3), fixture.RichTargetsSnapshot(4)
	out["compare target by target"] = written(t, func(w io.Writer) error {
		return WriteCompare(w, []CompareRun{{File: "runs/production-mainnet-getBalance-20261123T093020Z.json", Snapshot: three},
			{File: "/home/operator/benchmarks/2026/november/runs/getBalance-20261123T103020Z.json", Snapshot: four}}, width)
	})
}
