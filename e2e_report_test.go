package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/svgtest"
	"github.com/rpcstress/rpcstress/schema"
)

// These tests take a real run against the mock node through `rpcstress report` in every format
// and `rpcstress compare`, and check the HTML in a real headless Chromium.

// reportRun runs a two-stage profile with a mix of two requests across the node's limit,
// 100/s, then 300/s against a limit of 200/s, and returns its snapshot and the snapshot's file.
func reportRun(t *testing.T) (snap *engine.Snapshot, file string) {
	t.Helper()
	_, url := startNode(t, mocknode.Config{Rate: 200, Burst: 10, NoDelay: true})
	p := writeProfile(t, url, 32, getBalance+"weight = 3\n[[request]]\nmethod = \"getSlot\"\n"+stage("100/s", "1s")+stage("300/s", "1s"))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	return r.snap, r.out
}

func TestE2EReportFormats(t *testing.T) {
	t.Parallel()
	snap, file := reportRun(t)
	dir := t.TempDir()
	completed := strconv.FormatInt(snap.Totals.Completed, 10)

	t.Run("text", func(t *testing.T) {
		r := runVerb(t, "report", file, "--format", "text")
		if r.code != exitOK || !strings.Contains(r.stdout, "Invariant ✓") || !strings.Contains(r.stdout, "completed "+completed) {
			t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("json", func(t *testing.T) {
		out := filepath.Join(dir, "summary.json")
		if r := runVerb(t, "report", "--format", "json", "-o", out, file); r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		checkSchema(t, schema.Summary, b, "report --format json")
		var got struct {
			Schema   string              `json:"schema"`
			Totals   engine.Summary      `json:"totals"`
			Stages   []engine.StageStats `json:"stages"`
			Timeline json.RawMessage     `json:"timeline"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got.Totals.Completed != snap.Totals.Completed || got.Totals.Limited != snap.Totals.Limited ||
			len(got.Stages) != 2 || got.Timeline != nil || len(got.Totals.ByRequest) != 2 {
			t.Errorf("summary: completed %d limited %d, %d stages, timeline %q, %d requests; run: %d %d",
				got.Totals.Completed, got.Totals.Limited, len(got.Stages), got.Timeline, len(got.Totals.ByRequest),
				snap.Totals.Completed, snap.Totals.Limited)
		}
		// A summary is no snapshot: report, compare and merge refuse it rather than misread it.
		if r := runVerb(t, "report", out); r.code != exitUsage || !strings.Contains(r.stderr, "rpcstress.summary/v1") {
			t.Errorf("reading a summary as a snapshot: exit %d: %s", r.code, r.stderr)
		}
	})

	t.Run("csv", func(t *testing.T) {
		r := runVerb(t, "report", file, "--format", "csv")
		if r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		// A row a second, but for the sliver of a second the run ended in when it holds nothing.
		seconds := len(snap.Timeline)
		if last := snap.Timeline[seconds-1]; last.OK+last.Limited+last.Failed+last.Dropped+last.Inflight == 0 {
			seconds--
		}
		if len(rows) != seconds+1 {
			t.Fatalf("%d rows for %d seconds", len(rows), seconds)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		var ok, s429 int64
		for _, r := range rows[1:] {
			n, _ := strconv.ParseInt(r[col["ok"]], 10, 64)
			m, _ := strconv.ParseInt(r[col["status_429"]], 10, 64)
			ok, s429 = ok+n, s429+m
		}
		if ok != snap.Totals.OK || s429 != snap.Totals.Status["429"] || s429 == 0 {
			t.Errorf("Σ ok %d, Σ 429 %d; the run's: %d, %d", ok, s429, snap.Totals.OK, snap.Totals.Status["429"])
		}
	})

	t.Run("html", func(t *testing.T) {
		page := filepath.Join(dir, "report.html")
		// --echarts is retired: still accepted, with a note, so a script that passed it runs on.
		r := runVerb(t, "report", file, "--format", "html", "--echarts", "echarts.min.js", "-o", page)
		if r.code != exitOK || !strings.Contains(r.stderr, "--echarts is retired and ignored") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		chromium := findChromium(t)
		dom := dumpDOM(t, chromium, page)
		checkReportTables(t, dom, completed)
		checkChartsDrawn(t, dom, snap)
		checkScreenshotHasChart(t, chromium, page)
	})

	t.Run("compare", func(t *testing.T) {
		r := runVerb(t, "compare", file, file)
		if r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		for _, want := range []string{"Stage 1 · 100/s   A: stage 1", "Stage 2 · 300/s", "rps", "p99 ms", "limited"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("compare lacks %q:\n%s", want, r.stdout)
			}
		}
		if strings.Contains(r.stdout, "▲ ") || strings.Contains(r.stdout, "▼ ") || strings.Contains(r.stdout, "Not matched") {
			t.Errorf("a run against itself differs:\n%s", r.stdout)
		}
	})
}

func TestE2EReportUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"report", "x.json", "--format", "pdf"}, `--format "pdf": use text, json, csv or html`},
		{[]string{"compare"}, "usage: rpcstress compare A.json B.json"},
		{[]string{"compare", "missing-a.json", "missing-b.json"}, "missing-a.json"},
	}
	for _, tt := range tests {
		r := runVerb(t, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tt.args, r.code, r.stderr, exitUsage, tt.want)
		}
	}
}

// TestE2ESecretsNeverShown: a bearer token from the environment and API keys in the URL path
// and query reach the node but appear nowhere: not in the run's output, its snapshot, any
// format of its report, nor in compare.
func TestE2ESecretsNeverShown(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	const token, pathKey, queryKey = "tok-SECRET-5678", "pathSECRETkey42", "querySECRETkey31"
	p := writeFile(t, t.TempDir(), "s.toml", "name = \"secrets\"\nurl = \""+url+"v3/${PATH_KEY}?apikey=${QUERY_KEY}\"\n"+
		"[headers]\nAuthorization = \"Bearer ${TOKEN}\"\nX-Api-Key = \"${QUERY_KEY}\"\n"+getBalance+stage("50/s", "1s"))
	r := cliSetup{env: map[string]string{"TOKEN": token, "PATH_KEY": pathKey, "QUERY_KEY": queryKey}}.run(t, p)
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	snap, err := os.ReadFile(r.out)
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]string{"output": r.stdout + r.stderr, "snapshot": string(snap), "report": runVerb(t, "report", r.out).stdout}
	dir := t.TempDir()
	for _, format := range []string{"text", "json", "csv", "html"} {
		out := filepath.Join(dir, "report."+format)
		if rep := runVerb(t, "report", r.out, "--format", format, "-o", out); rep.code != exitOK {
			t.Fatalf("%s: exit %d: %s", format, rep.code, rep.stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outputs["report -o, "+format] = string(b)
	}
	outputs["compare"] = runVerb(t, "compare", r.out, r.out).stdout
	for name, text := range outputs {
		for _, secret := range []string{token, pathKey, queryKey} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s shows the secret %q", name, secret)
			}
		}
	}
	if !strings.Contains(string(snap), `"completed": 50`) || !strings.Contains(outputs["report -o, json"], `"completed": 50`) ||
		!strings.Contains(outputs["report -o, html"], "<td class=\"num\">50</td>") {
		t.Errorf("the run did not reach the node, or the reports lack it (the secrets must still be sent)")
	}
}

// checkReportTables: the run's numbers are in the page's tables.
func checkReportTables(t *testing.T, dom, completed string) {
	t.Helper()
	for _, want := range []string{
		"<title>rpcstress: e2e · ", `<td class="num">` + completed + `</td>`, // the totals
		`<td class="num">100/s</td>`, `<td class="num">300/s</td>`, // the stages
		"<td>getBalance</td>", "<td>getSlot</td>", // the requests
		`<td class="num">429</td>`, "Invariant ✓",
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %s", want)
		}
	}
	if strings.Contains(dom, "<script") {
		t.Error("the page has a script: it must read without one")
	}
}

// checkChartsDrawn: in the browser's DOM, each chart is an SVG that draws the run's own
// per-second numbers (every second, each in proportion), with its series and stages named.
func checkChartsDrawn(t *testing.T, dom string, snap *engine.Snapshot) {
	t.Helper()
	rows := snap.Timeline
	perSecond := func(v func(r *engine.Row) float64) []svgtest.Point {
		pts := make([]svgtest.Point, len(rows))
		for i := range rows {
			pts[i] = svgtest.Point{X: float64(rows[i].T), Y: v(&rows[i])}
		}
		return pts
	}
	for _, c := range []struct {
		id    string
		texts []string
		data  []svgtest.Point
	}{
		{"chart_rps", []string{"achieved rps", "target rate", "1 · 100/s", "2 · 300/s"}, perSecond(func(r *engine.Row) float64 { return r.RPS })},
		{"chart_latency", []string{"p50", "p99", "max"}, nil}, // seconds without answers break its lines
		{"chart_status", []string{"200", "429"}, perSecond(func(r *engine.Row) float64 { return float64(r.Status["200"]) })},
		{"chart_limited", []string{"limited %"}, nil},
	} {
		fig, ok := svgtest.Figure(dom, c.id)
		if !ok || !strings.Contains(fig, "<svg") {
			t.Errorf("%s: no SVG chart in the page", c.id)
			continue
		}
		texts := strings.Join(svgtest.Texts(fig), "\n")
		for _, want := range c.texts {
			if !strings.Contains(texts, want) {
				t.Errorf("%s lacks the text %q", c.id, want)
			}
		}
		if c.data != nil && !svgtest.Carries(svgtest.Lines(fig), c.data) {
			t.Errorf("%s does not draw the run's %d seconds", c.id, len(rows))
		}
	}
}
