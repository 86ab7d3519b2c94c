package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// targetsPane sets the targets of a run side by side: a column per target with what each
// achieved, and for two targets the ratio B/A of the rate and of the latency, so "B answers
// twice as slowly" reads at once. Counts are the run's; latency is the current stage's, the
// load every target gets alike; rates are the last second's. Shown instead of the latency
// and status panes when the run has several targets.
type targetsPane struct {
	paneBase
}

// targetCell is one figure of one target: its text, and its value for the ratio (ok false:
// none, as "-" has none).
type targetCell struct {
	text  string
	value float64
	ok    bool
}

// targetRow is one row of the targets table.
type targetRow struct {
	label string
	cell  func(p *targetsPane, st *engine.Stats) targetCell
	ratio bool // for two targets: B/A
	// extra rows show only in the wide layout, after the others.
	extra bool
	// checks rows show only when a target has expect rules.
	checks bool
}

// targetRows are the table's rows: what the issue asks for per target first, then the books.
var targetRows = []targetRow{
	{label: "ok/s", cell: okPerSecond, ratio: true},
	{label: "ok", cell: count(func(s *engine.Summary) int64 { return s.OK })},
	{label: "limited", cell: count(func(s *engine.Summary) int64 { return s.Limited })},
	{label: "failed", cell: count(func(s *engine.Summary) int64 { return s.Failed })},
	{label: "invalid", cell: invalidCell, checks: true},
	{label: "rpc errors", cell: count(func(s *engine.Summary) int64 { return textfmt.SumCounts(s.RPCErrors) })},
	{label: "p50 ms", cell: stageLatency(func(l *engine.Percentiles) float64 { return l.P50 }), ratio: true},
	{label: "p99 ms", cell: stageLatency(func(l *engine.Percentiles) float64 { return l.P99 }), ratio: true},
	{label: "dropped", cell: droppedCell},
	{label: "sent/s", cell: sentPerSecond, extra: true},
	{label: "inflight", cell: count(func(s *engine.Summary) int64 { return s.Inflight }), extra: true},
	// The connections dialed (+ dialed again after a close) and their mean setup time.
	{label: "conns", cell: connsCell, extra: true},
	{label: "dial ms", cell: dialCell, ratio: true, extra: true},
}

// targetsLabelWidth fits the longest row label and a space.
const targetsLabelWidth = 11

// maxTargetHead is the widest a target's column head gets ("C nethermind"); longer names are
// cut.
const maxTargetHead = 14

func count(of func(*engine.Summary) int64) func(*targetsPane, *engine.Stats) targetCell {
	return func(_ *targetsPane, st *engine.Stats) targetCell {
		n := of(&st.Total)
		return targetCell{text: textfmt.Int(n), value: float64(n), ok: true}
	}
}

// okPerSecond is the last second's answers ok: what the target achieved (a target that
// refuses fast answers at the full rate, none of it ok).
func okPerSecond(_ *targetsPane, st *engine.Stats) targetCell {
	if len(st.Timeline) == 0 {
		return targetCell{text: "-"} // no second has closed yet
	}
	r := okRate(&st.Last)
	return targetCell{text: textfmt.RPS(r), value: r, ok: true}
}

func sentPerSecond(_ *targetsPane, st *engine.Stats) targetCell {
	if len(st.Timeline) == 0 {
		return targetCell{text: "-"}
	}
	return targetCell{text: textfmt.RPS(st.Last.Sent), value: st.Last.Sent, ok: true}
}

func invalidCell(_ *targetsPane, st *engine.Stats) targetCell {
	if st.Total.Expect == nil {
		return targetCell{text: "-"}
	}
	return targetCell{text: textfmt.Int(st.Total.Expect.Invalid), ok: true}
}

// droppedCell: the target's own drops (its backlog was full), loud when there are any.
func droppedCell(p *targetsPane, st *engine.Stats) targetCell {
	text := textfmt.Int(st.Total.Dropped)
	if st.Total.Dropped > 0 {
		text = p.c.styles.Warn.Render(text)
	}
	return targetCell{text: text, ok: true}
}

func stageLatency(of func(*engine.Percentiles) float64) func(*targetsPane, *engine.Stats) targetCell {
	return func(_ *targetsPane, st *engine.Stats) targetCell {
		if st.Current.Completed == 0 {
			return targetCell{text: "-"} // nothing answered in this stage yet
		}
		v := of(&st.Current.Latency)
		return targetCell{text: textfmt.Ms(v), value: v, ok: true}
	}
}

// rows are the rows shown: extras only in the wide layout, invalid only with expect rules.
func (p *targetsPane) rows() []targetRow {
	checks := false
	for _, t := range p.c.sideBySide() {
		checks = checks || t.Total.Expect != nil
	}
	var rows []targetRow
	for _, r := range targetRows {
		if r.extra && !p.wide || r.checks && !checks {
			continue
		}
		rows = append(rows, r)
	}
	return rows
}

// layout is the columns that fit the width: the targets shown (at most maxTargetColumns, as
// many as fit), their widths, and whether the ratio column shows (two targets, both shown).
func (p *targetsPane) layout() (shown int, widths []int, ratio bool) {
	targets := p.c.sideBySide()
	room := p.width - targetsLabelWidth
	for i, t := range targets[:min(len(targets), maxTargetColumns)] {
		w := max(numWidth, cellWidth(targetLabel(i, t, maxTargetHead))+2)
		if w > room {
			break
		}
		room -= w
		widths = append(widths, w)
	}
	shown = len(widths)
	ratio = len(targets) == 2 && shown == 2 && room >= numWidth
	return shown, widths, ratio
}

// Lines: a title (wide), the head, the rows, and a line naming the targets left out.
func (p *targetsPane) Lines() (least, most int) {
	targets := p.c.sideBySide()
	if targets == nil {
		return 0, 0
	}
	n := p.titleLines() + 1 + len(p.rows())
	if shown, _, _ := p.layout(); shown < len(targets) {
		n++
	}
	return n, n
}

func (p *targetsPane) View() string {
	targets := p.c.sideBySide()
	if targets == nil {
		return ""
	}
	s := p.c.styles
	shown, widths, ratio := p.layout()
	const spans = "counts: run · latency: stage"
	lines := p.title("Targets", "  ("+spans+")")
	head := s.Label.Render(padRight("target", targetsLabelWidth))
	for i := range shown {
		head += s.Label.Render(padLeft(targetLabel(i, targets[i], widths[i]-2), widths[i]))
	}
	if ratio {
		head += s.Label.Render(padLeft("B/A", numWidth))
	}
	if !p.wide && cellWidth(head)+2+cellWidth(spans) <= p.width {
		head = spread(head, s.Muted.Render(spans), p.width) // two cells apart at least
	}
	lines = append(lines, head)
	for _, r := range p.rows() {
		line := p.c.label(r.label, targetsLabelWidth)
		cells := make([]targetCell, shown)
		for i := range shown {
			cells[i] = r.cell(p, targets[i])
			line += padLeft(cells[i].text, widths[i])
		}
		if ratio && r.ratio {
			line += padLeft(ratioText(cells[0], cells[1]), numWidth)
		}
		lines = append(lines, line)
	}
	if shown < len(targets) {
		more := "+" + textfmt.Int(int64(len(targets)-shown)) + " more: " + targetNames(targets, shown, maxTargetHead)
		lines = append(lines, s.Muted.Render(textfmt.Truncate(more, p.width)))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// ratioText is B's figure over A's: "2.00" is twice A's; "-" when either has none or A's is 0.
func ratioText(a, b targetCell) string {
	if !a.ok || !b.ok || a.value == 0 {
		return "-"
	}
	return textfmt.Sig(b.value/a.value, 3, 2)
}
