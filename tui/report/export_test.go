package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// csvRows writes s as CSV: the text, and its rows read back.
func csvRows(t *testing.T, s *engine.Snapshot) (string, [][]string) {
	t.Helper()
	text := written(t, func(w io.Writer) error { return WriteCSV(w, s) })
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return text, rows
}

// columns is where each column of a CSV header is.
func columns(head []string) map[string]int {
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	return col
}

func TestWriteCSVGolden(t *testing.T) {
	text, rows := csvRows(t, fixture.SnapshotWithTimeline())
	golden.RequireEqual(t, []byte(text))

	// Every row has every column, and the per-second counts add up to the run's.
	head := rows[0]
	want := "t,stage,target_rate,rps,ok,limited,failed,status_200,status_429,err_timeout,rpc_-32602," +
		"inflight,dropped,p50_ms,p90_ms,p99_ms,max_ms,bytes_in,saturated"
	if strings.Join(head, ",") != want {
		t.Errorf("header\n got %s\nwant %s", strings.Join(head, ","), want)
	}
	col := columns(head)
	sums := map[string]int64{}
	for _, r := range rows[1:] {
		for _, h := range []string{"ok", "limited", "failed", "status_200", "status_429", "err_timeout", "rpc_-32602", "dropped"} {
			sums[h] += mustInt(t, r[col[h]])
		}
	}
	s := fixture.Snapshot()
	for h, n := range map[string]int64{
		"ok": s.Totals.OK, "limited": s.Totals.Limited, "failed": s.Totals.Failed,
		"status_200": s.Totals.Status["200"], "status_429": s.Totals.Status["429"],
		"err_timeout": s.Totals.Errors["timeout"], "rpc_-32602": s.Totals.RPCErrors["-32602"], "dropped": s.Totals.Dropped,
	} {
		if sums[h] != n {
			t.Errorf("Σ %s = %d, the run's is %d", h, sums[h], n)
		}
	}
	if len(rows) != 21 || rows[1][col["stage"]] != "1" || rows[20][col["stage"]] != "2" || rows[19][col["saturated"]] != "1" {
		t.Errorf("want 20 rows, stages 1-based, saturation as 1: %v … %v", rows[1], rows[20])
	}
}

// TestWriteCSVTargets: a run of two targets has a target column first, each target's seconds
// in turn, the columns of both (geth's -32602 and erigon's -32000), and each target's rows add
// up to its own totals.
func TestWriteCSVTargets(t *testing.T) {
	s := fixture.TargetsSnapshot()
	_, rows := csvRows(t, s)
	head := strings.Join(rows[0], ",")
	if !strings.HasPrefix(head, "target,t,stage,") || !strings.Contains(head, "rpc_-32602,rpc_-32000") {
		t.Errorf("header %s: want target first and both targets' RPC codes", head)
	}
	col := columns(rows[0])
	if len(rows) != 41 || rows[1][col["target"]] != "geth" || rows[20][col["target"]] != "geth" ||
		rows[21][col["target"]] != "erigon" || rows[21][col["t"]] != "0" {
		t.Fatalf("want 20 rows of geth then 20 of erigon, got %d rows", len(rows)-1)
	}
	sums := map[string]map[string]int64{}
	for _, r := range rows[1:] {
		if sums[r[0]] == nil {
			sums[r[0]] = map[string]int64{}
		}
		for _, h := range []string{"ok", "limited", "status_429", "rpc_-32000", "rpc_-32602"} {
			sums[r[0]][h] += mustInt(t, r[col[h]])
		}
	}
	for _, tr := range s.Targets {
		tot := tr.Totals
		want := map[string]int64{"ok": tot.OK, "limited": tot.Limited, "status_429": tot.Status["429"],
			"rpc_-32000": tot.RPCErrors["-32000"], "rpc_-32602": tot.RPCErrors["-32602"]}
		for h, n := range want {
			if sums[tr.Name][h] != n {
				t.Errorf("%s: Σ %s = %d, its totals say %d", tr.Name, h, sums[tr.Name][h], n)
			}
		}
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		t.Fatalf("%q is not a whole number", s)
	}
	return n
}

// TestWriteCSVNoTimeline: a snapshot without a timeline (cut short at once) still gets the
// header, with the columns its totals name.
func TestWriteCSVNoTimeline(t *testing.T) {
	text, _ := csvRows(t, fixture.Snapshot())
	if got := strings.Count(text, "\n"); got != 1 || !strings.Contains(text, "status_429") {
		t.Errorf("want the header alone, with status_429:\n%s", text)
	}
	var b bytes.Buffer
	if WriteCSV(&b, nil) == nil || WriteJSON(&b, nil) == nil || WriteHTML(&b, nil) == nil {
		t.Error("writing no snapshot must fail")
	}
}

func TestWriteJSONSummaryOnly(t *testing.T) {
	s := fixture.SnapshotWithTimeline()
	s.Histograms.Total = "HISTxyz"
	var b bytes.Buffer
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	for _, k := range []string{"schema", "tool", "host", "profile", "target", "mode", "started_at", "ended_at",
		"end_reason", "totals", "stages", "events"} {
		if _, ok := got[k]; !ok {
			t.Errorf("the summary lacks %q", k)
		}
	}
	for _, k := range []string{"timeline", "histograms"} {
		if _, ok := got[k]; ok {
			t.Errorf("the summary has %q", k)
		}
	}
	if strings.Contains(b.String(), "HISTxyz") || !strings.Contains(b.String(), "\n  \"totals\": {") {
		t.Errorf("histograms leaked, or not indented:\n%s", b.String())
	}
	var back struct {
		Schema string              `json:"schema"`
		Totals engine.Summary      `json:"totals"`
		Stages []engine.StageStats `json:"stages"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Schema != SummarySchema || back.Totals.Completed != 2485 || len(back.Stages) != 2 ||
		back.Stages[1].Spec.Rate != 200 || back.Stages[1].Summary.Limited != 780 {
		t.Errorf("the summary does not read back: %+v", back)
	}
}

// TestWriteJSONThresholdsAndSearch: the summary carries the thresholds' verdict and a
// find-limit run's answer and limiter estimate, under the snapshot's names, and leaves them
// out when the run has none.
func TestWriteJSONThresholdsAndSearch(t *testing.T) {
	s := fixture.Snapshot()
	s.Thresholds = []engine.ThresholdResult{{Metric: "p99", Condition: "< 50ms", Op: "<", Bound: 50, Unit: "ms", Measured: 61.5, Margin: -11.5, Where: "th.toml:13"}}
	s.Search = &engine.SearchResult{EndReason: "converged",
		Answer:  engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 999.5, FirstBad: 1050, Text: "1000/s met the SLO"},
		Limiter: &engine.LimiterEstimate{Kind: "token bucket", Rate: 1000, RateErr: 0.67, Burst: 60, Nginx: "rate=1000r/s burst=60"}}
	var b bytes.Buffer
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Thresholds []engine.ThresholdResult `json:"thresholds"`
		Search     *engine.SearchResult     `json:"search"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Thresholds) != 1 || got.Thresholds[0].Measured != 61.5 || got.Thresholds[0].Pass {
		t.Errorf("thresholds: %+v", got.Thresholds)
	}
	if got.Search == nil || got.Search.Answer.Rate != 1000 || got.Search.Answer.FirstBad != 1050 ||
		got.Search.Limiter == nil || got.Search.Limiter.Nginx != "rate=1000r/s burst=60" {
		t.Errorf("search: %+v", got.Search)
	}

	b.Reset()
	if err := WriteJSON(&b, fixture.Snapshot()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"thresholds"`) || strings.Contains(b.String(), `"search"`) {
		t.Errorf("a plain run's summary has thresholds or a search:\n%s", b.String())
	}
}

// TestWriteCSVHonestSeconds: a second without answers has empty latency cells, not 0 ms (read
// as instant answers); a last row that holds nothing (the sliver of a second a run ends in) is
// left out, while an empty second inside the run stays.
func TestWriteCSVHonestSeconds(t *testing.T) {
	s := fixture.SnapshotWithTimeline()
	s.Timeline[4] = engine.Row{T: 4, TargetRate: 50} // nothing came back in second 4
	s.Timeline = append(s.Timeline, engine.Row{T: 20, Stage: 1, TargetRate: 200})
	_, rows := csvRows(t, s)
	col := columns(rows[0])
	if last := rows[len(rows)-1]; len(rows) != 21 || last[col["t"]] != "19" {
		t.Errorf("%d rows, the last at t=%s: want 20 seconds, the empty 21st left out", len(rows)-1, last[col["t"]])
	}
	empty, full := rows[5], rows[6]
	for _, h := range []string{"p50_ms", "p90_ms", "p99_ms", "max_ms"} {
		if empty[col[h]] != "" || full[col[h]] == "" {
			t.Errorf("%s: %q in the second without answers (want empty), %q in the next", h, empty[col[h]], full[col[h]])
		}
	}
	if empty[col["rps"]] != "0" || empty[col["ok"]] != "0" {
		t.Errorf("the empty second's counts are %q rps, %q ok: want 0", empty[col["rps"]], empty[col["ok"]])
	}
}
