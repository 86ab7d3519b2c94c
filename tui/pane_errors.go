package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// errorsPane shows the failures that are not HTTP statuses: transport error classes, the
// JSON-RPC error codes found inside answers, with a message the target sent, and the results
// that broke the requests' expect rules (invalid), by rule.
type errorsPane struct {
	paneBase
}

// Lines is one line in the compact layout (the connections have a pane of their own there);
// wide, a title and a line per class and code (ten at most), the least being the title and
// the first of each kind, and the connections' line with room.
func (p *errorsPane) Lines() (least, most int) {
	if targets := p.c.sideBySide(); targets != nil {
		return p.targetLines()
	}
	if !p.wide {
		return 1, 1
	}
	tot := &p.c.st.Total
	return 3, min(1+max(len(tot.Errors), 1)+max(len(tot.RPCErrors), 1)+len(runtext.FaultRows(tot.Calls.Faults))+len(invalidRules(tot)), 10) + 1
}

// invalidRules are the rules broken in the run, the most broken first, as rows: the rule's
// label and its count of invalid calls; one row "none" while rules hold, none without rules.
func invalidRules(tot *engine.Summary) [][2]string {
	if tot.Expect == nil {
		return nil
	}
	if len(tot.Expect.ByRule) == 0 {
		return [][2]string{{"none", ""}}
	}
	var rows [][2]string
	for _, label := range textfmt.SortedByCount(tot.Expect.ByRule) {
		rows = append(rows, [2]string{label, textfmt.Int(tot.Expect.ByRule[label])})
	}
	return rows
}

func (p *errorsPane) View() string {
	if targets := p.c.sideBySide(); targets != nil {
		return p.targetsView(targets)
	}
	if !p.wide {
		return p.line()
	}
	lines := clip(p.table(), max(p.height-1, 3)) // the connections' line below, with room
	if len(lines) < p.height {
		lines = append(lines, connsLine(p.c, p.width))
	}
	return strings.Join(lines, "\n")
}

// line: "errors  timeout 5 · reset 2   rpc -32602 ×5 Invalid params…".
func (p *errorsPane) line() string { return p.lineOf("errors", p.c.st) }

// lineOf is the line of st's errors under label.
func (p *errorsPane) lineOf(label string, st *engine.Stats) string {
	tot, s := &st.Total, p.c.styles
	var parts []string
	for _, class := range textfmt.SortedByCount(tot.Errors) {
		parts = append(parts, s.Bad.Render(class)+" "+textfmt.Int(tot.Errors[class]))
	}
	text := "transport none"
	if len(parts) > 0 {
		text = strings.Join(parts, " · ")
	}
	// Faults of JSON-RPC answers (a lost batch item, a wrong id) go last; their room is kept
	// before an error message takes the rest.
	faults := ""
	if rows := runtext.FaultRows(tot.Calls.Faults); len(rows) > 0 {
		faults = "faults " + rows[0][0] + " ×" + rows[0][1]
		if len(rows) > 1 {
			faults += fmt.Sprintf(" (+%d)", len(rows)-1)
		}
	}
	// So are the answers that broke expect rules: they fail quietly, with a 200.
	invalid := ""
	if inv := tot.Expect; inv != nil && inv.Invalid > 0 {
		invalid = "invalid " + textfmt.Int(inv.Invalid)
	}
	if codes := textfmt.SortedByCount(tot.RPCErrors); len(codes) > 0 {
		used := labelWidth + cellWidth(strings.Join(ansiFree(tot.Errors), " · ")) + 3
		if faults != "" {
			used += 3 + cellWidth(faults)
		}
		if invalid != "" {
			used += 3 + cellWidth(invalid)
		}
		first := codes[0]
		rpc := fmt.Sprintf("rpc %s ×%d", first, tot.RPCErrors[first])
		if len(codes) > 1 {
			rpc += fmt.Sprintf(" (+%d codes)", len(codes)-1)
		}
		if msg := textfmt.OneLine(st.RPCMessage[first]); msg != "" {
			if room := p.width - used - cellWidth(rpc) - 1; room >= 10 {
				rpc += " " + s.Muted.Render(textfmt.Truncate(msg, room))
			}
		}
		text += "   " + rpc
	}
	if faults != "" && labelWidth+lipgloss.Width(text)+3+cellWidth(faults) <= p.width {
		text += "   " + s.Bad.Render(faults)
	}
	if invalid != "" && labelWidth+lipgloss.Width(text)+3+cellWidth(invalid) <= p.width {
		text += "   " + s.Bad.Render(invalid)
	}
	// Many transport classes on a narrow terminal: the line is cut at the edge, not wrapped.
	return textfmt.Truncate(p.c.label(label, labelWidth)+text, p.width)
}

// targetLines: with several targets, a line per target shown (under a title when wide).
func (p *errorsPane) targetLines() (least, most int) {
	n := p.titleLines() + min(len(p.c.sideBySide()), maxTargetColumns)
	return n, n
}

// targetsView is the errors of each target on a line of its own, labelled with the target:
// one node erring while the others answer is what a run side by side is for.
func (p *errorsPane) targetsView(targets []*engine.Stats) string {
	lines := p.title("Errors", "  (run)")
	for i, t := range targets[:min(len(targets), maxTargetColumns)] {
		lines = append(lines, p.lineOf(targetLabel(i, t, labelWidth-1), t))
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// ansiFree lists "class n" for each transport error class, unstyled, to measure the line.
func ansiFree(m map[string]int64) []string {
	var out []string
	for _, k := range textfmt.SortedByCount(m) {
		out = append(out, k+" "+textfmt.Int(m[k]))
	}
	if len(out) == 0 {
		out = append(out, "transport none")
	}
	return out
}

// table is the wide form: one line per transport class and per JSON-RPC code.
func (p *errorsPane) table() []string {
	st, s := p.c.st, p.c.styles
	tot := &st.Total
	lines := p.title("Errors", "  (run; /s is the last second)")
	if len(tot.Errors) == 0 {
		lines = append(lines, p.c.label("transport", labelWidth)+"none")
	}
	for i, class := range textfmt.SortedByCount(tot.Errors) {
		n := tot.Errors[class]
		lines = append(lines, p.c.groupLabel("transport", i)+s.Bad.Render(padRight(class, numWidth))+
			padLeft(textfmt.Int(n), numWidth)+padLeft(textfmt.Pct(n, tot.Completed), numWidth)+
			padLeft(textfmt.Int(st.Last.Errors[class]), numWidth)+" /s")
	}
	if len(tot.RPCErrors) == 0 {
		lines = append(lines, p.c.label("JSON-RPC", labelWidth)+"none")
	}
	for i, code := range textfmt.SortedByCount(tot.RPCErrors) {
		head := p.c.groupLabel("JSON-RPC", i) + s.Bad.Render(padRight(code, numWidth)) +
			padLeft(textfmt.Int(tot.RPCErrors[code]), numWidth) + "  "
		room := p.width - labelWidth - 2*numWidth - 2
		lines = append(lines, head+s.Muted.Render(textfmt.Truncate(textfmt.OneLine(st.RPCMessage[code]), room)))
	}
	// Faults of JSON-RPC answers, by kind, with what each means.
	rows := runtext.FaultRows(tot.Calls.Faults)
	kindWidth := numWidth
	for _, r := range rows {
		kindWidth = max(kindWidth, cellWidth(r[0])+1)
	}
	for i, r := range rows {
		kind := padRight(r[0], kindWidth)
		room := p.width - labelWidth - kindWidth - numWidth - 2
		lines = append(lines, p.c.groupLabel("faults", i)+s.Bad.Render(kind)+padLeft(r[1], numWidth)+"  "+
			s.Muted.Render(textfmt.Truncate(r[2], room)))
	}
	// Results that broke an expect rule, by rule: the count of calls, before the rule (which
	// may be long: it is cut at the edge).
	for i, r := range invalidRules(tot) {
		if r[1] == "" {
			lines = append(lines, p.c.groupLabel("invalid", i)+r[0])
			continue
		}
		room := p.width - labelWidth - numWidth - 2
		lines = append(lines, p.c.groupLabel("invalid", i)+s.Bad.Render(padLeft(r[1], numWidth))+"  "+
			textfmt.Truncate(safetext.Line(r[0]), room))
	}
	return lines
}
