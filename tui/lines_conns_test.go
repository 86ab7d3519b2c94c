package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
)

// TestLinePrinterRedials: connections dialed again make a line after the second's rows when
// their count grew, however many views a second publishes; none while it stays; with several
// targets, the targets that re-dialed by letter.
func TestLinePrinterRedials(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	p.Header("ws", "ws://127.0.0.1:8546", engine.ModeOpen)
	redials := []int64{0, 0, 2, 3, 3, 3} // per view; five views a second
	for i := range 30 {
		var rows []engine.Row
		for s := 0; s < i/5; s++ {
			rows = append(rows, testRow(s, 0, 100, 100, 0))
		}
		st := &engine.Stats{Timeline: rows}
		st.Total.Connections = engine.Connections{Dialed: 4 + redials[i/5], Redialed: redials[i/5]}
		p.Update(st)
	}
	out := b.String()
	want := []string{"⟶ 2.0s connections re-dialed: 2 (of 6 dialed)", "⟶ 3.0s connections re-dialed: 3 (of 7 dialed)"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "re-dialed"); n != len(want) {
		t.Errorf("%d re-dial lines, want %d:\n%s", n, len(want), out)
	}

	b.Reset()
	p = NewLinePrinter(&b, 0)
	targetsHeader(p)
	a, ws := []engine.Row{testRow(0, 0, 100, 100, 0)}, []engine.Row{testRow(0, 0, 100, 100, 0)}
	st := targetsView(nil, &answers.Result{}, a, ws)
	st.Targets[1].Total.Connections = engine.Connections{Dialed: 18, Redialed: 14}
	p.Update(st)
	if out := b.String(); !strings.Contains(out, "⟶ 1.0s connections re-dialed: B erigon 14 (of 18 dialed)") || strings.Contains(out, "A geth 0") {
		t.Errorf("targets:\n%s", out)
	}
}
