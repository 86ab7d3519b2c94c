package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// common is what every pane of the dashboard shares: the styles, the keys and the run as the
// dashboard sees it now. The root model owns it; panes only read it.
type common struct {
	styles *Styles
	keys   *KeyMap

	st *engine.Stats
	// plan is st.Plan with the user's latest actions applied, until the engine's next view
	// confirms them: two quick ↑ presses make +21%, not +10% twice from the same old rate.
	plan engine.PlanState
	// state is the run state as shown (see Dashboard.state).
	state engine.State

	// message is the one-line answer to the last action ("saved: …", a bad rate).
	message    string
	messageBad bool
}

func (c *common) setMessage(text string, bad bool) {
	c.message, c.messageBad = textfmt.OneLine(text), bad
}

// label pads a row label to a fixed width and styles it.
func (c *common) label(text string, width int) string {
	return c.styles.Label.Render(padRight(text, width))
}

// groupLabel labels the first row of a group (row 0) and leaves the rows after it blank, so
// the group reads as one: "transport  timeout …", then "           reset …".
func (c *common) groupLabel(text string, row int) string {
	if row > 0 {
		text = ""
	}
	return c.label(text, labelWidth)
}

// padRight pads s with spaces to width cells (never cuts it).
func padRight(s string, width int) string {
	if n := cellWidth(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// padLeft right-aligns s in width cells.
func padLeft(s string, width int) string {
	if n := cellWidth(s); n < width {
		return strings.Repeat(" ", width-n) + s
	}
	return s
}

// cellWidth is how many terminal cells s takes: a CJK character or an emoji takes two, an
// escape sequence (a style) none. Widths are always measured so, never in runes or bytes: an
// error message from a target in Japanese must not push a pane past its border.
func cellWidth(s string) int { return ansi.StringWidth(s) }

// spread puts left and right on one line of width cells, right-aligned; when they do not fit,
// right is dropped (it is always the less important part).
func spread(left, right string, width int) string {
	lw, rw := lipgloss.Width(left), lipgloss.Width(right)
	if right == "" || lw+1+rw > width {
		return left
	}
	return left + strings.Repeat(" ", width-lw-rw) + right
}

// clip cuts lines to at most n, keeping the first.
func clip(lines []string, n int) []string {
	if n <= 0 {
		return nil
	}
	if len(lines) > n {
		return lines[:n]
	}
	return lines
}
