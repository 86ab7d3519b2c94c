package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subLineWidth is what a subscription's line under a second fits, as the rows do.
const subLineWidth = 80

// printSubs writes a line per subscription under second r: its figures of that second and
// the run's trouble so far, so notifications' spread and lag read beside the request rate
// above them, second by second.
func (p *LinePrinter) printSubs(subs []engine.SubStats, r *engine.Row) {
	for i := range subs {
		p.w.Line(fitParts("    ↳ "+textfmt.Truncate(textfmt.OneLine(subs[i].Name), subNameWidth), runtext.SubParts(&subs[i], runtext.LastSub(r, i)), subLineWidth))
	}
}

// fitParts joins head and as many parts as fit width cells, two spaces apart, dropping from
// the end.
func fitParts(head string, parts []string, width int) string {
	var b strings.Builder
	b.WriteString(head)
	n := cellWidth(head)
	for _, part := range parts {
		w := cellWidth(part)
		if n+2+w > width {
			break
		}
		b.WriteString("  ")
		b.WriteString(part)
		n += 2 + w
	}
	return b.String()
}
