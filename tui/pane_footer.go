package tui

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// footerPane is the bottom of the dashboard: the rate input or the answer to the last action,
// then the keys; once the run is over, the final summary and where the snapshot went.
type footerPane struct {
	c     *common
	width int
	help  *help.Model
	input *textinput.Model

	inputOpen bool
	quitting  bool // the user stopped the run already: the next q leaves the drain
	done      *RunDoneMsg
}

func (p *footerPane) SetSize(width, _ int) { p.width = width }

// View returns the footer's lines; the layout gives the rest of the screen to the panes above.
func (p *footerPane) View() string {
	if p.done != nil {
		return p.doneView()
	}
	var lines []string
	if p.inputOpen {
		lines = append(lines, p.input.View())
	}
	if p.c.message != "" {
		lines = append(lines, p.messageLine())
	}
	keys := p.c.keys
	switch {
	case p.inputOpen:
		lines = append(lines, p.shortHelp(inputHelp{keys}.ShortHelp()))
	case p.c.state == engine.StateDraining || p.c.state == engine.StateDone:
		// Nothing is left to steer: the run waits for answers, and a key leaves at once.
		lines = append(lines, p.drainLine())
	case p.help.ShowAll:
		lines = append(lines, p.help.FullHelpView(keys.FullHelp()))
	default:
		lines = append(lines, p.shortHelp(keys.ShortHelp()))
	}
	return strings.Join(lines, "\n")
}

// drainLine says what the run waits for, how long at most, and how to stop waiting:
// "draining 60 in flight (up to 58s) — q/ctrl+c again: leave now".
func (p *footerPane) drainLine() string {
	s := p.c.styles
	what := fmt.Sprintf("draining %d in flight", p.c.st.Total.Inflight)
	if left := p.c.st.Plan.DrainLeft; left > 0 {
		what += fmt.Sprintf(" (up to %s)", left.Round(time.Second))
	}
	keys := "q/ctrl+c: leave now"
	if p.quitting {
		keys = "q/ctrl+c again: leave now"
	}
	if line := what + " — " + keys; cellWidth(line) > p.width {
		return textfmt.Truncate(line, p.width) // cut before styling: styles are escape sequences
	}
	return s.Good.Render(what) + s.Muted.Render(" — "+keys)
}

// shortHelp is the one-line help with the bindings that fit whole, in their order; the rest is
// behind "?". Quit and help are always among them: on a narrow terminal the keys cut are the
// ones "?" lists, never the way out or the way to the others.
func (p *footerPane) shortHelp(bindings []key.Binding) string {
	keys := p.c.keys
	must := func(b key.Binding) bool {
		return b.Help() == keys.Quit.Help() || b.Help() == keys.Help.Help()
	}
	sep := cellWidth(p.help.ShortSeparator)
	width := func(b key.Binding) int { return cellWidth(b.Help().Key) + 1 + cellWidth(b.Help().Desc) + sep }
	used := -sep // the first binding has no separator before it
	for _, b := range bindings {
		if b.Enabled() && must(b) {
			used += width(b)
		}
	}
	var fit []key.Binding
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		if !must(b) {
			if used+width(b) > p.width {
				continue
			}
			used += width(b)
		}
		fit = append(fit, b)
	}
	return p.help.ShortHelpView(fit)
}

func (p *footerPane) messageLine() string {
	s := p.c.styles
	if p.c.messageBad {
		return s.Bad.Render("! ") + s.Bad.Render(textfmt.Truncate(p.c.message, p.width-2))
	}
	return s.Good.Render(textfmt.Truncate(p.c.message, p.width))
}

// doneView is the end of the run: the compact summary (runtext.WriteSummaryLine, wrapped at its "; "
// separators), the snapshot's path or why it is missing, and how to leave.
func (p *footerPane) doneView() string {
	s := p.c.styles
	lines := []string{s.Section.Render("Run finished") + s.Muted.Render("  "+p.endReason())}
	switch snap := p.done.Snapshot; {
	case snap != nil && len(snap.Targets) > 1:
		// Several targets: a summary each, led by its letter and name (the first target's
		// alone would read as the run's).
		for i := range snap.Targets {
			tr := &snap.Targets[i]
			parts := runtext.SummaryParts(&tr.Totals, runtext.RunSeconds(snap), tr.SaturatedSeconds)
			parts[0] = s.Label.Render(namedLabel(i, tr.Name, maxTargetHead)+":") + " " + parts[0]
			lines = append(lines, wrapIndented(parts, "; ", 2, p.width)...)
		}
	case snap != nil:
		var b bytes.Buffer
		runtext.WriteSummaryLine(&b, snap)
		lines = append(lines, wrapParts(strings.Split(strings.TrimSpace(b.String()), "; "), "; ", p.width)...)
	}
	switch {
	case p.done.Err != nil:
		lines = append(lines, s.Bad.Render("! snapshot not saved: ")+textfmt.Truncate(textfmt.OneLine(p.done.Err.Error()), p.width-22))
	case p.done.Path != "":
		lines = append(lines, s.Label.Render("snapshot: ")+textfmt.Truncate(p.done.Path, p.width-10))
	}
	lines = append(lines, s.Muted.Render("press any key to exit"))
	return strings.Join(lines, "\n")
}

func (p *footerPane) endReason() string {
	if p.done.Snapshot != nil && p.done.Snapshot.EndReason != "" {
		return "(" + p.done.Snapshot.EndReason + ")"
	}
	if r := p.c.st.EndReason; r != "" {
		return "(" + r + ")"
	}
	return ""
}

// wrapParts joins parts with sep into lines of at most width cells, breaking only between
// parts (a part longer than a line is cut).
func wrapParts(parts []string, sep string, width int) []string {
	return wrapIndented(parts, sep, 0, width)
}

// wrapIndented is wrapParts with the lines after the first starting with indent spaces.
func wrapIndented(parts []string, sep string, indent, width int) []string {
	var lines []string
	cur := ""
	for _, part := range parts {
		switch {
		case cur == "":
			cur = part
		case lipgloss.Width(cur+sep+part) <= width:
			cur += sep + part
		default:
			lines = append(lines, textfmt.Truncate(cur+strings.TrimRight(sep, " "), width))
			cur = strings.Repeat(" ", indent) + part
		}
	}
	if cur != "" {
		lines = append(lines, textfmt.Truncate(cur, width))
	}
	return lines
}
