package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// headerPane is the top of the dashboard: what runs against what, where the plan is, the run's
// state and how long it has run. Two lines.
type headerPane struct {
	c     *common
	width int
	bar   progress.Model
}

func newHeaderPane(c *common) headerPane {
	bar := progress.New(
		progress.WithColors(c.styles.ProgressFull),
		progress.WithFillCharacters('█', '░'),
	)
	bar.EmptyColor = c.styles.ProgressEmpty
	return headerPane{c: c, bar: bar}
}

func (p *headerPane) SetSize(width, _ int) { p.width = width }

// Lines is the header's height: the title and the stage, and the chain's head when the run
// follows one.
func (p *headerPane) Lines() int {
	if p.c.st.Head != nil {
		return 3
	}
	return 2
}

func (p *headerPane) View() string {
	v := p.titleLine() + "\n" + p.stageLine()
	if p.c.st.Head != nil {
		v += "\n" + p.headLine()
	}
	return v
}

// titleLine: "rpcstress NAME  TARGET  open loop" … "RUNNING  1m5s".
func (p *headerPane) titleLine() string {
	st, s := p.c.st, p.c.styles
	name := safetext.Line(st.Name) // the profile's: from a file
	if name == "" {
		name = "(unnamed)"
	}
	state := string(p.c.state)
	right := s.state(state).Render(strings.ToUpper(state)) + " " + s.Muted.Render("elapsed") + " " +
		formatElapsed(st.Elapsed)
	// On a narrow terminal the target gives way first (it is the longest, and the user knows
	// it already), then the mode, then the name is cut: the state and the clock always show.
	head, mode := "rpcstress "+name, runtext.ModeText(st.Mode)
	room := p.width - lipgloss.Width(right) - 2
	head = textfmt.Truncate(head, max(room, 1))
	room -= cellWidth(head)
	tail := ""
	if room >= 2+cellWidth(mode) {
		tail = "  " + s.Muted.Render(mode)
		room -= 2 + cellWidth(mode)
	}
	left := s.Title.Render(head)
	target := safetext.Line(st.Target)
	if targets := p.c.sideBySide(); targets != nil {
		target = targetNames(targets, 0, maxTargetHead) // the rate line counts them
	}
	if room-2 >= 12 { // a target cut shorter than that says nothing
		left += "  " + s.Muted.Render(textfmt.Truncate(target, room-2))
	}
	return spread(left+tail, right, p.width)
}

// stageLine: "stage 2/3 200/s ██████░░░░ 42%  35s left" with the stage's spec when known.
func (p *headerPane) stageLine() string {
	st, plan, s := p.c.st, p.c.plan, p.c.styles
	count := plan.StageCount
	if count == 0 {
		count = len(st.Stages)
	}
	label := "stage -"
	if count > 0 {
		label = fmt.Sprintf("stage %d/%d", plan.Stage+1, count)
	}
	spec, hasSpec := stageSpec(st, plan.Stage)
	if hasSpec && spec.Name != "" {
		label += " " + safetext.Line(spec.Name)
	}
	left := s.Label.Render(label)
	used := cellWidth(label)
	if st.Mode != engine.ModeClosed {
		rate := "target " + plan.TargetRate.String()
		left += "  " + rate
		used += 2 + cellWidth(rate)
	}
	pct, hasPct := stageProgress(st, plan, spec, hasSpec)
	tail := stageLeft(plan, p.c.state, spec, hasSpec)
	barWidth := p.width - used - 2 - cellWidth(tail) - 2
	if !hasPct || barWidth < 10 {
		return textfmt.Truncate(left+"  "+s.Muted.Render(tail), p.width) // a long stage name is cut
	}
	// ViewAs draws the bar at exactly this fraction, with no animation frames to drive. The
	// width goes to a copy: drawing changes nothing in the pane.
	bar := p.bar
	bar.SetWidth(min(barWidth, 60))
	return left + "  " + bar.ViewAs(pct) + "  " + s.Muted.Render(tail)
}

// stageSpec is the plan's stage i, when the stats carry it.
func stageSpec(st *engine.Stats, i int) (engine.Stage, bool) {
	for _, s := range st.Stages {
		if s.Index == i {
			return s.Spec, true
		}
	}
	return engine.Stage{}, false
}

// stageProgress is the share of the current stage that has run, when the stage has an end.
func stageProgress(st *engine.Stats, plan engine.PlanState, spec engine.Stage, hasSpec bool) (float64, bool) {
	ran := st.Elapsed - plan.StageStart
	total := plan.StageLeft + ran
	if hasSpec && spec.Duration > 0 {
		total = spec.Duration
	}
	if total <= 0 || (plan.StageLeft == 0 && !(hasSpec && spec.Duration > 0)) {
		return 0, false // open-ended: no bar to fill
	}
	return min(max(float64(ran)/float64(total), 0), 1), true
}

// stageLeft says how much of the stage is left, or why nothing counts down.
func stageLeft(plan engine.PlanState, state engine.State, spec engine.Stage, hasSpec bool) string {
	switch {
	case state == engine.StateHeld:
		return "held: stays until h"
	case state == engine.StatePaused:
		return "paused"
	case state == engine.StateDraining || state == engine.StateDone:
		return string(state)
	case plan.StageLeft > 0:
		return formatElapsed(plan.StageLeft) + " left"
	case hasSpec && spec.Duration > 0:
		return "ending"
	}
	return "open-ended"
}

// formatElapsed writes a run time to the second: "1m5s", "42s", "1h0m3s".
func formatElapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return d.Truncate(time.Second).String()
}
