package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	imagepng "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/svgtest"
	"github.com/rpcstress/rpcstress/schema"
)

// These tests take a real run against the mock node through `rpcstress report` in every format
// and `rpcstress compare`, and check the HTML in a real headless Chromium.

// reportRun runs a two-stage profile with a mix of two requests across the node's limit and
// saves its snapshot: 100/s, then 300/s against a limit of 200/s.
func reportRun(t *testing.T) (snap *engine.Snapshot, file string) {
	t.Helper()
	_, url := startNode(t, mocknode.Config{Rate: 200, Burst: 10, NoDelay: true})
	p := writeProfile(t, url, 32, getBalance+"weight = 3\n[[request]]\nmethod = \"getSlot\"\n"+
		"[[stage]]\nrate = \"100/s\"\nduration = \"1s\"\n[[stage]]\nrate = \"300/s\"\nduration = \"1s\"\n")
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	file = filepath.Join(t.TempDir(), "run.json")
	if err := engine.WriteSnapshot(file, r.snap); err != nil {
		t.Fatal(err)
	}
	return r.snap, file
}

func TestE2EReportFormats(t *testing.T) {
	t.Parallel()
	snap, file := reportRun(t)
	dir := t.TempDir()
	completed := strconv.FormatInt(snap.Totals.Completed, 10)

	t.Run("text", func(t *testing.T) {
		code, out, errOut := runVerb(t, "report", file, "--format", "text")
		if code != exitOK || !strings.Contains(out, "Invariant ✓") || !strings.Contains(out, "completed "+completed) {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
	})

	t.Run("json", func(t *testing.T) {
		out := filepath.Join(dir, "summary.json")
		if code, _, errOut := runVerb(t, "report", "--format", "json", "-o", out, file); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
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
		if code, _, errOut := runVerb(t, "report", out); code != exitUsage || !strings.Contains(errOut, "rpcstress.summary/v1") {
			t.Errorf("reading a summary as a snapshot: exit %d: %s", code, errOut)
		}
	})

	t.Run("csv", func(t *testing.T) {
		code, out, errOut := runVerb(t, "report", file, "--format", "csv")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
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
		code, _, errOut := runVerb(t, "report", file, "--format", "html", "--echarts", "echarts.min.js", "-o", page)
		if code != exitOK || !strings.Contains(errOut, "--echarts is retired and ignored") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		chromium := findChromium(t)
		dom := dumpDOM(t, chromium, page)
		checkReportTables(t, dom, completed)
		checkChartsDrawn(t, dom, snap)
		checkScreenshotHasChart(t, chromium, page)
	})

	t.Run("compare", func(t *testing.T) {
		code, out, errOut := runVerb(t, "compare", file, file)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		for _, want := range []string{"Stage 1 · 100/s   A: stage 1", "Stage 2 · 300/s", "rps", "p99 ms", "limited"} {
			if !strings.Contains(out, want) {
				t.Errorf("compare lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "▲ ") || strings.Contains(out, "▼ ") || strings.Contains(out, "Not matched") {
			t.Errorf("a run against itself differs:\n%s", out)
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
		{[]string{"compare", "a.json"}, "usage: rpcstress compare A.json B.json"},
		{[]string{"compare", "missing-a.json", "missing-b.json"}, "missing-a.json"},
	}
	for _, tt := range tests {
		code, _, errOut := runVerb(t, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tt.args, code, errOut, exitUsage, tt.want)
		}
	}
}

// TestE2EReportSecretsNeverShown: a bearer token from the environment and API keys in the URL
// path and query appear in no format of the report, nor in compare.
func TestE2EReportSecretsNeverShown(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	const token, pathKey, queryKey = "tok-SECRET-5678", "pathSECRETkey42", "querySECRETkey31"
	p := filepath.Join(t.TempDir(), "s.toml")
	text := "name = \"secrets\"\nurl = \"" + url + "v3/${PATH_KEY}?apikey=${QUERY_KEY}\"\n" +
		"[headers]\nAuthorization = \"Bearer ${TOKEN}\"\nX-Api-Key = \"${QUERY_KEY}\"\n" + getBalance +
		"[[stage]]\nrate = \"50/s\"\nduration = \"1s\"\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TOKEN": token, "PATH_KEY": pathKey, "QUERY_KEY": queryKey}
	dir := t.TempDir()
	snap := filepath.Join(dir, "run.json")
	var stdout, stderr syncBuffer
	c := &cli{stdout: &stdout, stderr: &stderr, signals: make(chan os.Signal),
		getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	if code := c.main(t.Context(), []string{p, "--headless", "--out", snap}); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	outputs := map[string]string{}
	for _, format := range []string{"text", "json", "csv", "html"} {
		out := filepath.Join(dir, "report."+format)
		if code, _, errOut := runVerb(t, "report", snap, "--format", format, "-o", out); code != exitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outputs[format] = string(b)
	}
	_, outputs["compare"], _ = runVerb(t, "compare", snap, snap)
	for name, text := range outputs {
		for _, secret := range []string{token, pathKey, queryKey} {
			if strings.Contains(text, secret) {
				t.Errorf("the %s output shows the secret %q", name, secret)
			}
		}
	}
	if !strings.Contains(outputs["json"], `"completed": 50`) || !strings.Contains(outputs["html"], "<td class=\"num\">50</td>") {
		t.Errorf("the run did not reach the node, or the reports lack it (the secrets must still be sent)")
	}
}

// findChromium returns the headless browser, or skips the test; under CI a missing browser
// fails it, since then the HTML report would go unchecked.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium: CI checks the HTML report in a real browser (apt-get install chromium)")
	}
	t.Skip("no chromium here: the HTML report is not checked in a browser (apt-get install chromium)")
	return ""
}

// offlineBrowser is how the tests run Chromium with no network: in a network namespace of its
// own where that can be had (root, as CI runs), and in any case through a proxy that does not
// exist and with every host name unresolvable, so the page can fetch nothing.
func offlineBrowser(ctx context.Context, t *testing.T, chromium string, args ...string) *exec.Cmd {
	t.Helper()
	args = append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--disable-background-networking",
		"--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.CommandContext(ctx, chromium, args...)
	if exec.CommandContext(ctx, "unshare", "--net", "true").Run() == nil {
		cmd = exec.CommandContext(ctx, "unshare", append([]string{"--net", chromium}, args...)...)
	}
	// Chromium starts helper processes that hold its output open: on a timeout the whole
	// group goes, and Wait returns soon after, so a stuck browser fails the test, never hangs it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// dumpDOM loads a page in headless Chromium with the network off and returns the DOM.
func dumpDOM(t *testing.T, chromium, page string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := offlineBrowser(ctx, t, chromium, "--dump-dom", "file://"+page)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return string(out)
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

// checkScreenshotHasChart: Chromium, offline, paints the throughput line (the only thing on
// the page in its blue), so the SVG is not only in the page but drawn.
func checkScreenshotHasChart(t *testing.T, chromium, page string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	png := filepath.Join(t.TempDir(), "report.png")
	cmd := offlineBrowser(ctx, t, chromium, "--window-size=1280,2000", "--hide-scrollbars", "--screenshot="+png, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := imagepng.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	blue := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near(r>>8, 0x1f) && near(g>>8, 0x77) && near(bl>>8, 0xb4) {
				blue++
			}
		}
	}
	if blue < 100 {
		t.Errorf("only %d pixels of the throughput line's blue in the screenshot: the chart was not drawn", blue)
	}
}

func near(v, want uint32) bool { return v+12 >= want && v <= want+12 }
