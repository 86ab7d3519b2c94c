package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestLinePrinterHead: a run that follows the chain's head prints it after the first row
// that holds one and every ten seconds after, with its progress, the lag behind the reference
// node and a stale head said as such; each line fits 80 columns. A run without a chain
// prints none.
func TestLinePrinterHead(t *testing.T) {
	var rows []engine.Row
	for i := range 25 {
		r := testRow(i, 0, 100, 100, 0)
		if i > 0 { // the first second closed before the head was read
			h, ref := uint64(20_123_400+i/2), uint64(20_123_403+i/2)
			r.Head, r.RefHead = &h, &ref
		}
		r.HeadStale = i == 21
		rows = append(rows, r)
	}
	var out bytes.Buffer
	p := NewLinePrinter(&out, 80)
	head := &engine.HeadState{Chain: engine.ChainEVM}
	for i := range rows { // published a row at a time, the timeline window sliding
		p.Update(&engine.Stats{Timeline: rows[max(i-12, 0) : i+1], Head: head})
	}
	var got []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "head") {
			got = append(got, l)
		}
		if n := cellWidth(l); n > 80 {
			t.Errorf("%d cells: %q", n, l)
		}
	}
	want := []string{
		"  ⟶ 2.0s head 20,123,400, lag 3 blocks",
		"  ⟶ 12.0s head 20,123,405 (+5 in 10s), lag 3 blocks",
		"  ⟶ 22.0s head 20,123,410 (+5 in 10s), lag 3 blocks, stale",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("head lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	out.Reset()
	p = NewLinePrinter(&out, 80)
	p.Update(&engine.Stats{Timeline: rows})
	if strings.Contains(out.String(), "head") {
		t.Errorf("a run without a chain printed a head:\n%s", out.String())
	}
}
