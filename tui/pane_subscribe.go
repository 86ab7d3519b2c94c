package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subsPane shows the run's subscriptions, a row each: how many hold one, the last second's
// notifications, fan-out spread and lag, and what went wrong (gaps, drops, refusals). It sits
// beside the request rate, so a spike of calls that delays notifications shows in the same
// frame. With several targets each subscription has a row per target (its letter before the
// name), since each target's subscribers subscribe at its own node. It takes no room when the
// run holds no subscriptions.
type subsPane struct {
	paneBase
}

// subNameWidth is the width of a subscription's name in the pane.
const subNameWidth = 16

// subsRow is one row of the pane: a subscription as one target holds it.
type subsRow struct {
	name string // "newHeads", or "B newHeads" with several targets
	sub  *engine.SubStats
	last *engine.Row // its target's last second
	i    int         // the subscription's place in its target's Subs and rows
}

// rows are the pane's rows: each subscription, on each target shown with several.
func (p *subsPane) rows() []subsRow {
	views := []*engine.Stats{p.c.st}
	targets := p.c.sideBySide()
	if targets != nil {
		views = targets[:min(len(targets), maxTargetColumns)]
	}
	var rows []subsRow
	for i := range p.c.st.Subs {
		for ti, st := range views {
			if i >= len(st.Subs) {
				continue
			}
			name := textfmt.OneLine(st.Subs[i].Name)
			if targets != nil {
				name = targetLetter(ti) + " " + name
			}
			rows = append(rows, subsRow{name: name, sub: &st.Subs[i], last: &st.Last, i: i})
		}
	}
	return rows
}

// Lines is one row a subscription (and the title, boxed); with several targets at least the
// first subscription's row on each target.
func (p *subsPane) Lines() (least, most int) {
	n := len(p.rows())
	if n == 0 {
		return 0, 0
	}
	least = 1
	if targets := p.c.sideBySide(); targets != nil {
		least = min(len(targets), maxTargetColumns, n)
	}
	return p.titleLines() + least, p.titleLines() + n
}

// View draws a row a subscription (on each target), its figures as many as fit.
func (p *subsPane) View() string {
	rows := p.rows()
	if len(rows) == 0 || p.height <= 0 {
		return ""
	}
	lines := p.title("Subscriptions", "  (last second; trouble: whole run)")
	for k, r := range rows {
		head := p.c.groupLabel("subs", k) + padRight(textfmt.Truncate(r.name, subNameWidth-1), subNameWidth-2)
		lines = append(lines, fitParts(head, runtext.SubParts(r.sub, runtext.LastSub(r.last, r.i)), p.width))
	}
	return strings.Join(clip(lines, p.height), "\n")
}
