package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// headLine is the header's third line when the run follows the chain's head: the target's
// head and its progress, its lag behind the reference node, and a stale head loudly:
//
//	evm head 20,123,456 (+5 in 10s)  lag 3 blocks
//	evm head 20,123,456 STALE 12s: HTTP 429 Too Many Requests
//
// A node that falls behind the chain under load is the operator's first alarm, so it sits at
// the top, beside the plan, at every size. On a narrow terminal the tail is cut.
func (p *headerPane) headLine() string {
	h, s := p.c.st.Head, p.c.styles
	if targets := p.c.sideBySide(); targets != nil {
		return p.targetsHeadLine(targets)
	}
	type part struct {
		text  string
		style lipgloss.Style
	}
	parts := []part{
		{string(h.Chain) + " ", s.Label},
		{runtext.HeadPhrase(h.Target.Head, h.Advance, h.AdvanceOver), lipgloss.NewStyle()},
	}
	if h.Target.Failing {
		parts = append(parts, part{" STALE" + strings.TrimPrefix(runtext.StalePhrase(h.Target), "stale"), s.Bad})
	}
	if lag, ok := h.Lag(); ok {
		parts = append(parts, part{"  " + runtext.LagPhrase(h.Chain, lag), s.Label})
	}
	if h.Ref != nil && h.Ref.Failing {
		parts = append(parts, part{"  ref " + runtext.StalePhrase(*h.Ref), s.Warn})
	}
	var plain strings.Builder
	for _, pt := range parts {
		plain.WriteString(safetext.Line(pt.text)) // an error message may come from the node
	}
	if cellWidth(plain.String()) > p.width {
		return textfmt.Truncate(plain.String(), p.width) // cut before styling: styles are escape sequences
	}
	var b strings.Builder
	for _, pt := range parts {
		b.WriteString(pt.style.Render(safetext.Line(pt.text)))
	}
	return b.String()
}

// targetsHeadLine is the head line of a run with several targets: each target's head, by
// letter, so heads drifting apart (the answers' head skew) show where they happen:
//
//	evm head  A 20,123,456  B 20,123,453 STALE 12s
func (p *headerPane) targetsHeadLine(targets []*engine.Stats) string {
	s := p.c.styles
	plain := string(p.c.st.Head.Chain) + " head"
	styled := s.Label.Render(safetext.Line(plain))
	for i, t := range targets[:min(len(targets), maxTargetColumns)] {
		if t.Head == nil {
			continue
		}
		part := "  " + targetLetter(i) + " " + runtext.HeadNumber(t.Head.Target.Head)
		plain += part
		styled += part
		if t.Head.Target.Failing {
			stale := " STALE" + strings.TrimPrefix(safetext.Line(runtext.StalePhrase(t.Head.Target)), "stale")
			plain += stale
			styled += s.Bad.Render(stale)
		}
	}
	if cellWidth(plain) > p.width {
		return textfmt.Truncate(plain, p.width) // cut before styling: styles are escape sequences
	}
	return styled
}
