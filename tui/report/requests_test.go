package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestReportRequests: a mix of two shows one row per request, busiest first; a mix of one shows
// no table (the totals already are that request).
func TestReportRequests(t *testing.T) {
	tot := engine.Summary{Completed: 100, ByRequest: map[string]engine.Summary{
		"getSlot":    {Completed: 30, Status: map[string]int64{"200": 30}, Failed: 7, RPCErrors: map[string]int64{"-32602": 4, "-32601": 3}, Latency: engine.Percentiles{P50: 1.5}},
		"getBalance": {Completed: 70, Status: map[string]int64{"200": 60}, Limited: 10, Latency: engine.Percentiles{P99: 42}},
	}}
	var b bytes.Buffer
	ew := textfmt.NewWriter(&b, 0)
	ew.Section(requestsTable(&tot))
	out := b.String()
	gb, gs := strings.Index(out, "getBalance"), strings.Index(out, "getSlot")
	if gb < 0 || gs < 0 || gb > gs {
		t.Fatalf("want getBalance then getSlot:\n%s", out)
	}
	if !strings.Contains(out, "70.0%") || !strings.Contains(out, "42") {
		t.Errorf("share or p99 missing:\n%s", out)
	}
	// failed alone cannot tell JSON-RPC errors from 5xx or transport errors: the RPC errors of
	// each request have their own column.
	lines := strings.Split(out, "\n")
	head, slot := strings.Fields(lines[2]), strings.Fields(lines[4])
	if head[len(head)-1] != "rpcerr" || slot[0] != "getSlot" || slot[len(slot)-1] != "7" {
		t.Errorf("want an rpcerr column with getSlot's 7 RPC errors:\n%s", out)
	}
	b.Reset()
	one := engine.Summary{Completed: 5, ByRequest: map[string]engine.Summary{"x": {Completed: 5}}}
	ew.Section(requestsTable(&one))
	if b.Len() != 0 {
		t.Errorf("a mix of one printed:\n%s", b.String())
	}
}

// TestReportRequestsFillTheWidth: a long request name is cut only as far as the width needs. A
// run without JSON-RPC calls has no calls columns, and they take no room either: their gaps
// took four cells, so names were cut that fitted, and the gaps between columns shrank.
func TestReportRequestsFillTheWidth(t *testing.T) {
	tot := engine.Summary{Completed: 100, ByRequest: map[string]engine.Summary{
		strings.Repeat("getBalance", 10): {Completed: 60}, "getSlot": {Completed: 40}}}
	lines := requestsTable(&tot).Lines("  ", textfmt.DefaultWidth)
	if w := ansi.StringWidth(lines[1]); w != textfmt.DefaultWidth || !strings.Contains(lines[0], "count  share") {
		t.Errorf("the long name's row is %d cells wide, want %d with two-space gaps:\n%s",
			w, textfmt.DefaultWidth, strings.Join(lines, "\n"))
	}
}
