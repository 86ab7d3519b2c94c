package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// A run that sends to several targets side by side (issue 17) publishes each target's own
// view in Stats.Targets; the top-level view is the first target's. The dashboard then shows
// what differs between targets (the targets, requests, errors and answers panes) instead of
// the first target's panes alone, and names each target by a letter and its name: "A geth",
// "B erigon", the letters the ratio column (B/A) and the answers' pairs refer to.

// maxTargetColumns is how many targets the dashboard shows side by side at most; the others
// are named on a line of their own (the report has them all).
const maxTargetColumns = 4

// sideBySide returns each target's view when the run sends to several; nil for one target.
func (c *common) sideBySide() []*engine.Stats {
	if len(c.st.Targets) < 2 {
		return nil
	}
	return c.st.Targets
}

// targetLetter is target i's letter: A, B, … in the run's order.
func targetLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}

// targetLabel is "B erigon": the letter and the name (from a profile: escaped), cut to width
// cells.
func targetLabel(i int, st *engine.Stats, width int) string {
	return namedLabel(i, st.TargetName, width)
}

// namedLabel is targetLabel of target i named name.
func namedLabel(i int, name string, width int) string {
	label := targetLetter(i)
	if name = safetext.Line(name); name != "" {
		label += " " + name
	}
	return textfmt.Truncate(label, width)
}

// targetNames lists the targets as "A geth, B erigon" (for the header and the line of targets
// left out), each cut to width cells.
func targetNames(targets []*engine.Stats, from, width int) string {
	names := make([]string, 0, len(targets))
	for i := from; i < len(targets); i++ {
		names = append(names, targetLabel(i, targets[i], width))
	}
	return strings.Join(names, ", ")
}

// sameTargetViews reports whether two views of a run with several targets hold the same
// targets' views and answer counts. The engine makes a new top-level view on every call then
// (it gathers the targets' views, each published by its own aggregator), so the pointer alone
// would redraw every frame for nothing.
func sameTargetViews(a, b *engine.Stats) bool {
	if len(a.Targets) < 2 || !slices.Equal(a.Targets, b.Targets) || (a.Answers == nil) != (b.Answers == nil) {
		return false
	}
	return a.Answers == nil || a.Answers.Totals == b.Answers.Totals
}
