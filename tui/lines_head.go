package tui

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
)

// printHead prints the chain's head after row t of rows, when the run follows one: after the
// first row that holds a head and every engine.HeadWindow seconds after. The per-second
// line has no room left for a head column within 80 columns, and the head moves slowly
// (a block every 12 s on Ethereum), so a line every ten seconds tells its progress:
//
//	⟶ 10.0s head 20,123,456 (+1 in 10s), lag 3 blocks
//
// A stale head (its last read failed) says so; the events say when it went stale and why.
func (p *LinePrinter) printHead(h *engine.HeadState, rows []engine.Row, t int) {
	if h == nil {
		return
	}
	i := len(rows) - 1
	for i >= 0 && rows[i].T != t {
		i--
	}
	if i < 0 || rows[i].Head == nil || (p.headShown && t-p.headAt < engine.HeadWindow) {
		return
	}
	r := &rows[i]
	p.headAt, p.headShown = t, true
	adv, over := engine.HeadAdvance(rows, i, engine.HeadWindow)
	text := runtext.HeadPhrase(*r.Head, adv, over)
	if r.RefHead != nil {
		text += ", " + runtext.LagPhrase(h.Chain, int64(*r.RefHead)-int64(*r.Head))
	}
	if r.HeadStale {
		text += ", stale"
	}
	p.w.Paragraph(fmt.Sprintf("  ⟶ %.1fs ", float64(t+1)), "    ", text)
}
