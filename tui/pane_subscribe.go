package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subsPane shows the run's subscriptions, a row each: how many hold one, the last second's
// notifications, fan-out spread and lag, and what went wrong (gaps, drops, refusals). It sits
// beside the request rate, so a spike of calls that delays notifications shows in the same
// frame. It takes no room when the run holds no subscriptions.
type subsPane struct {
	paneBase
}

// subNameWidth is the width of a subscription's name in the pane.
const subNameWidth = 16

// Lines is one row a subscription (and the title, boxed).
func (p *subsPane) Lines() (least, most int) {
	n := len(p.c.st.Subs)
	if n == 0 {
		return 0, 0
	}
	return p.titleLines() + 1, p.titleLines() + n
}

// View draws a row a subscription, its figures as many as fit.
func (p *subsPane) View() string {
	subs := p.c.st.Subs
	if len(subs) == 0 || p.height <= 0 {
		return ""
	}
	lines := p.title("Subscriptions", "  (last second; trouble: whole run)")
	last := &p.c.st.Last
	for i := range subs {
		sub := &subs[i]
		head := p.c.groupLabel("subs", i) + padRight(textfmt.Truncate(textfmt.OneLine(sub.Name), subNameWidth-1), subNameWidth-2)
		lines = append(lines, fitParts(head, runtext.SubParts(sub, runtext.LastSub(last, i)), p.width))
	}
	return strings.Join(clip(lines, p.height), "\n")
}
