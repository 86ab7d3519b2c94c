package tui

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// printRedials prints a line when connections were dialed again since the last one (over
// WebSocket: a node or a proxy closed them under their calls), after a view's new rows, so at
// most once a second; views are the run's, or each target's (named by letter then):
//
//	⟶ 4.0s connections re-dialed: 14 (of 18 dialed)
//	⟶ 4.0s connections re-dialed: B ws 14 (of 18 dialed)
//
// A column would not fit 80 beside SATURATED, and most runs never re-dial.
func (p *LinePrinter) printRedials(views []*engine.Stats) {
	if len(p.redials) != len(views) {
		p.redials = make([]int64, len(views))
	}
	var parts []string
	for i, v := range views {
		c := &v.Total.Connections
		if c.Redialed == p.redials[i] {
			continue
		}
		p.redials[i] = c.Redialed
		part := fmt.Sprintf("%s (of %s dialed)", textfmt.Int(c.Redialed), textfmt.Int(c.Dialed))
		if len(views) > 1 {
			part = namedLabel(i, v.TargetName, targetNameWidth) + " " + part
		}
		parts = append(parts, part)
	}
	if len(parts) > 0 {
		p.w.Paragraph(fmt.Sprintf("  ⟶ %.1fs ", float64(p.lastT+1)), "    ", "connections re-dialed: "+strings.Join(parts, ", "))
	}
}
