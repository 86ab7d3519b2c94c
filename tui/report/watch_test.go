package report

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/svgtest"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// TestNodeTables: a watched run's report has, per stage, the node's CPU (mean and highest
// second) and memory (start → end) beside the stage's rate, rps and p95 (seed 000's table),
// for each process and for rpcstress itself; says when rpcstress measured itself, when a
// process exited; and the node's metrics per stage with how scraping went. A run that watched
// nothing has neither table.
func TestNodeTables(t *testing.T) {
	out := reportText(t, fixture.WatchedSnapshot())
	checkContains(t, "the report", out,
		"Node resources per stage (p95 in ms; cpu as top shows it: 100% is one core)",
		"  #   rate    rps   p95  process      cpu   max  memory",
		// Stage 1: geth at 40..49 %, its memory 1.2 GB → 1.29 GB; nginx; rpcstress 20..29 %.
		"  1   50/s   50.0  4.86  geth       44.5%   49%  1.20 GB → 1.29 GB",
		"                         nginx         2%    2%  8.00 MB",
		"                         rpcstress  24.5%   29%  30.0 MB",
		// Stage 2: geth at 160..169 %; nginx read until it exited; rpcstress at 170..179 %.
		"  2  200/s  198.5  10.7  geth        164%  169%  1.30 GB → 1.39 GB",
		"                         nginx         2%    2%  8.00 MB",
		"                         rpcstress   174%  179%  30.0 MB",
		"Node metrics per stage (counters per second)",
		"  1  chain_head_block     1004.5   1009",
		"     rate(rpc_requests)     50/s   50/s",
		"  2  chain_head_block     1014.5   1019",
		"     rate(rpc_requests)  198.5/s  203/s",
		"20 scrapes, 1 failed (last: no", "answer within 900ms), 7.50 ms each",
	)
	// The note, wrapped in the text, says what each process is, which exited, and where
	// rpcstress measured itself (stage 2 only: stage 1 stayed under 80 % of its cores).
	checkContains(t, "the note", nodeStagesTable(fixture.WatchedSnapshot()).Note,
		"geth: pid 4242 (geth --dev --http --metrics).",
		"nginx: pid 4343 (nginx: master process /usr/sbin/nginx), exited at 15.25s: its numbers stop there.",
		"In stage 2, rpcstress itself used 179% CPU, over 80% of its 2 cores: it measures itself as much as the node")
	if strings.Contains(out, "In stage 1,") {
		t.Error("stage 1, at under 80 % of the cores, is flagged")
	}
	plain := reportText(t, fixture.SnapshotWithTimeline())
	if strings.Contains(plain, "Node resources") || strings.Contains(plain, "Node metrics") {
		t.Errorf("a run that watched nothing has node tables:\n%s", plain)
	}
	fixture.CheckPlainAndNarrow(t, out)
}

// TestCompareNode: under each stage's block, compare puts each watched process of run A (and
// rpcstress) against the process of the same name in the other runs: CPU (its Δ in points),
// its highest second and memory, lower being better; a run that did not watch it shows "-";
// runs whose reference watched nothing have no such rows.
func TestCompareNode(t *testing.T) {
	a, b, none := fixture.WatchedSnapshot(), fixture.WatchedSnapshot(), fixture.SnapshotWithTimeline()
	b.Watch.Stages[1].Procs[0].CPUMean = 120
	b.Watch.Stages[1].Procs[0].RSSEnd = 1_500_000_000
	out := compareText(t, a, b, none)
	checkContains(t, "the comparison", out,
		"  node (cpu as top shows it: 100% is one core)",
		"  geth cpu              164%     120%  -44.5 pt  -27.1%  ▼ better  -",
		"  geth memory        1.39 GB  1.50 GB   +110 MB   +7.9%  ▲ worse   -",
		"  rpcstress cpu max     179%     179%         =                    -",
	)
	two := compareText(t, a, b)
	checkContains(t, "the comparison of two", two, "  geth cpu              164%     120%  -44.5 pt  -27.1%  ▼ better")
	if strings.Count(two, "  node (cpu") != 2 {
		t.Errorf("not one node block per stage:\n%s", two)
	}
	plain := compareText(t, none, a)
	if strings.Contains(plain, "node (cpu") {
		t.Errorf("node rows though run A watched nothing:\n%s", plain)
	}
}

// TestCompareNodeFourRunsFits: four watched runs compared fit 80 columns: the node block splits
// against A as the block above it does (one table of four made 91-cell lines), each table
// naming its runs, and every run keeps its numbers.
func TestCompareNodeFourRunsFits(t *testing.T) {
	runs := make([]*engine.Snapshot, 4)
	for i := range runs {
		runs[i] = fixture.WatchedSnapshot()
		runs[i].Watch.Stages[1].Procs[0].CPUMean = float64(100 + 10*i)
	}
	out := compareText(t, runs...)
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line of %d cells: %q", w, l)
		}
	}
	block := out[strings.LastIndex(out, "  node (cpu"):]
	if n := strings.Count(block, "geth memory"); n < 2 {
		t.Errorf("stage 2's node block is in %d table(s), want it split:\n%s", n, block)
	}
	for _, cpu := range []string{"100%", "110%", "120%", "130%"} {
		if !strings.Contains(block, cpu) {
			t.Errorf("stage 2's node block lacks a run's geth cpu %s:\n%s", cpu, block)
		}
	}
}

// TestCSVWatchColumns: a watched run's CSV has, after the other columns, each process's CPU,
// memory, threads, files and disk I/O per second, rpcstress's own, and each series of the
// node's metrics; a cell is empty where nothing was read (nginx after it exited), never a 0
// that would read as idle. A run that watched nothing has none of them.
func TestCSVWatchColumns(t *testing.T) {
	s := fixture.WatchedSnapshot()
	s.Watch.Procs[1].Label = "nginx#2" // a label made unique: a plain column name
	_, rows := csvRows(t, s)
	head := rows[0]
	col := columns(head)
	want := []string{"saturated", "geth_cpu_pct", "geth_rss_bytes", "geth_threads", "geth_fds", "geth_read_bps", "geth_write_bps",
		"nginx_2_cpu_pct", "nginx_2_rss_bytes", "nginx_2_threads", "nginx_2_fds", "nginx_2_read_bps", "nginx_2_write_bps",
		"rpcstress_cpu_pct", "rpcstress_rss_bytes", "rpcstress_threads", "rpcstress_fds", "rpcstress_read_bps", "rpcstress_write_bps",
		"m_chain_head_block", "m_rate_rpc_requests"}
	if got := strings.Join(head[len(head)-len(want):], ","); got != strings.Join(want, ",") {
		t.Fatalf("last columns %s", got)
	}
	for _, tc := range []struct {
		row  int // the second
		col  string
		want string
	}{
		{3, "geth_cpu_pct", "43"},            // 40 + t in stage 1
		{12, "geth_cpu_pct", "162"},          // 150 + t in stage 2
		{12, "geth_rss_bytes", "1320000000"}, // 1.2 GB + 10 MB a second
		{12, "geth_fds", "132"},
		{12, "geth_write_bps", "49152"},
		{14, "nginx_2_cpu_pct", "2"}, // its last second
		{15, "nginx_2_cpu_pct", ""},  // exited: empty, not 0
		{15, "nginx_2_threads", ""},
		{15, "rpcstress_fds", ""}, // not read: empty
		{15, "rpcstress_cpu_pct", "175"},
		{15, "m_chain_head_block", "1015"},
		{15, "m_rate_rpc_requests", "203"}, // the second of the 5 timeouts: 120 + 78 + 5
	} {
		if got := rows[1+tc.row][col[tc.col]]; got != tc.want {
			t.Errorf("second %d %s: %q, want %q", tc.row, tc.col, got, tc.want)
		}
	}
	_, plain := csvRows(t, fixture.SnapshotWithTimeline())
	if head := strings.Join(plain[0], ","); strings.Contains(head, "cpu") || !strings.HasSuffix(head, ",saturated") {
		t.Errorf("a run that watched nothing: %s", head)
	}
}

// TestHTMLWatchCharts: a watched run's page charts each process's CPU and memory per second
// and rpcstress's own, from the timeline's readings; nginx's line stops where it exited (no
// zeros after); the node tables are on the page; a run that watched nothing has no such chart.
func TestHTMLWatchCharts(t *testing.T) {
	s := fixture.WatchedSnapshot()
	page := writeHTMLPage(t, s)
	rows := s.Timeline
	cpu := chartFigure(t, page, "chart_node_cpu", "geth", "nginx", "rpcstress", "1 · 50/s")
	mem := chartFigure(t, page, "chart_node_memory", "geth", "nginx", "rpcstress")
	for _, c := range []struct {
		fig  string
		name string
		want []svgtest.Point
	}{
		{cpu, "geth cpu", rowPoints(rows, func(r *engine.Row) float64 { return r.Watch.Procs[0].CPU })},
		{cpu, "rpcstress cpu", rowPoints(rows, func(r *engine.Row) float64 { return r.Watch.Self.CPU })},
		{cpu, "nginx cpu until it exited", rowPoints(rows[:15], func(r *engine.Row) float64 { return r.Watch.Procs[1].CPU })},
		{mem, "geth memory", rowPoints(rows, func(r *engine.Row) float64 { return float64(r.Watch.Procs[0].RSS) / 1e6 })},
	} {
		if !svgtest.Carries(svgtest.Lines(c.fig), c.want) {
			t.Errorf("%s is not drawn from the timeline", c.name)
		}
	}
	if svgtest.Carries(svgtest.Lines(cpu), rowPoints(rows[:16], func(r *engine.Row) float64 { return 2 })) {
		t.Error("nginx's line goes on after it exited")
	}
	checkContains(t, "the page", page, "Node resources per stage", "Node metrics per stage", "<td>rpcstress</td>")
	if plain := writeHTMLPage(t, fixture.SnapshotWithTimeline()); strings.Contains(plain, "chart_node_cpu") {
		t.Error("a run that watched nothing has a node chart")
	}
}
