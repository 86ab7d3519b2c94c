package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// searchRowFormat is one probe row of the live table (54 cells before the verdict).
const searchRowFormat = "%2s %-8s %8s %8s %7s %7s %6s  %s"

// searchPane draws the whole find-limit screen from one Progress view (and the live stats of
// the probe in progress). It fits 80x24; a taller terminal shows more probe rows.
type searchPane struct {
	styles        *Styles
	bar           progress.Model // drawn at each frame's width, as a copy
	width, height int
	name, target  string

	pr       *search.Progress
	live     *engine.Stats
	now      time.Time
	stopping bool
	showHelp bool
	done     *SearchDoneMsg
	footer   string
}

func (p *searchPane) View() string {
	top := []string{p.titleLine(), p.sloLine(), p.boundsLine(), ""}
	top = append(top, p.currentLines()...)
	bottom := p.bottomLines()
	room := max(p.height-len(top)-len(bottom), 0)
	var middle []string
	if p.showHelp {
		middle = p.helpLines()
	} else {
		middle = p.tableLines(room)
	}
	middle = clip(middle, room)
	for len(middle) < room {
		middle = append(middle, "")
	}
	lines := append(append(top, middle...), bottom...)
	cut := lipgloss.NewStyle().MaxWidth(p.width)
	for i, l := range lines {
		if lipgloss.Width(l) > p.width {
			lines[i] = cut.Render(l)
		}
	}
	return strings.Join(clip(lines, p.height), "\n")
}

// titleLine: "rpcstress find-limit NAME  TARGET" … "SEARCHING 1m5s".
func (p *searchPane) titleLine() string {
	s := p.styles
	state, badge := "searching", s.state("running")
	switch {
	case p.done != nil || (p.pr != nil && p.pr.Result != nil):
		state, badge = "done", s.state("done")
	case p.stopping || (p.pr != nil && p.pr.Stopping):
		state, badge = "stopping", s.state("draining")
	}
	var elapsed time.Duration
	if p.pr != nil {
		elapsed = p.pr.Elapsed
		if c := p.pr.Current; c != nil && p.pr.Result == nil {
			elapsed += p.now.Sub(c.Started) // the view was published when the probe began
		}
	}
	right := badge.Render(strings.ToUpper(state)) + " " + s.Muted.Render("elapsed") + " " + formatElapsed(elapsed)
	head := "rpcstress find-limit " + p.name
	room := p.width - cellWidth(head) - lipgloss.Width(right) - 4
	left := s.Title.Render(head)
	if room >= 8 {
		left += "  " + s.Muted.Render(textfmt.Truncate(p.target, room))
	}
	return spread(left, right, p.width)
}

// sloLine: "SLO p99 ≤ 20 ms, limited ≤ 1%, failed ≤ 0.1%" … "budget 5m".
func (p *searchPane) sloLine() string {
	if p.pr == nil {
		return ""
	}
	left := p.styles.Label.Render("SLO") + "  " + strings.Join(runtext.SLOBounds(p.pr.SLO, "ok"), ", ")
	right := p.styles.Muted.Render("budget " + textfmt.Seconds(p.pr.Settings.BudgetS))
	return spread(left, right, p.width)
}

// boundsLine: "bounds  good 1000/s  bad 2000/s  gap 100% → 5%".
func (p *searchPane) boundsLine() string {
	s := p.styles
	if p.pr == nil {
		return ""
	}
	good, bad := "-", "-"
	if p.pr.Good > 0 {
		good = s.Good.Render(textfmt.PerSec(p.pr.Good))
	}
	if p.pr.Bad > 0 {
		bad = s.Bad.Render(textfmt.PerSec(p.pr.Bad))
	}
	line := s.Label.Render("bounds") + "  good " + good + "  bad " + bad
	if p.pr.Good > 0 && p.pr.Bad > 0 {
		line += fmt.Sprintf("  gap %s → %s", textfmt.Percent(100*(p.pr.Bad-p.pr.Good)/p.pr.Good), textfmt.Percent(p.pr.Settings.PrecisionPct))
	}
	return line
}

// currentLines are the probe in progress (with a progress bar through settle and measure) and
// its live numbers; nothing between probes.
func (p *searchPane) currentLines() []string {
	s := p.styles
	switch {
	case p.pr != nil && p.pr.Result != nil:
		return nil // the answer below says it all
	case p.pr == nil || p.pr.Current == nil || p.done != nil:
		return []string{s.Muted.Render("between probes"), "", ""}
	}
	c := p.pr.Current
	el := p.now.Sub(c.Started)
	total := c.Settle + c.Measure
	phase := "settle"
	if c.Phase == "burst" {
		phase = "idle gap"
	}
	if el >= c.Settle {
		phase = "measure"
		if c.Phase == "burst" {
			phase = "burst"
		}
	}
	head := fmt.Sprintf("probe %d at %s (%s)", c.N, textfmt.PerSec(c.Rate), c.Step)
	if c.Phase == "burst" {
		head = fmt.Sprintf("limiter burst probe at %s", textfmt.PerSec(c.Rate))
	}
	clock := fmt.Sprintf(" %s/%s", formatElapsed(min(el, total)), formatElapsed(total))
	barWidth := max(p.width-cellWidth(head)-cellWidth(phase)-cellWidth(clock)-3, 5)
	bar := p.bar // a copy: drawing changes nothing in the pane
	bar.SetWidth(barWidth)
	frac := 0.0
	if total > 0 {
		frac = min(max(el.Seconds()/total.Seconds(), 0), 1)
	}
	line := s.Value.Render(head) + " " + s.Muted.Render(phase) + " " + bar.ViewAs(frac) + clock
	return []string{line, p.liveLine(), ""}
}

// liveLine is the probe's numbers so far: the last second's rate and p99, the shares of its
// current stage.
func (p *searchPane) liveLine() string {
	st := p.live
	if st == nil {
		return ""
	}
	cur := &st.Current
	parts := []string{
		"rps " + textfmt.RPS(st.Last.RPS),
		"p99 " + textfmt.Ms(st.Last.Latency.P99) + " ms",
		"ok " + textfmt.Pct(cur.OK, cur.Completed),
		"limited " + textfmt.Pct(cur.Limited, cur.Completed),
		"failed " + textfmt.Pct(cur.Failed, cur.Completed),
	}
	if cur.Dropped > 0 || st.Plan.Saturated {
		parts = append(parts, p.styles.Warn.Render(fmt.Sprintf("dropped %d", cur.Dropped)))
	}
	if st.Plan.Saturated {
		parts = append(parts, p.styles.Warn.Render("TESTER SATURATED"))
	}
	return "  " + p.styles.Muted.Render("now") + "  " + strings.Join(parts, "  ")
}

// tableLines are the probes so far, the latest at the bottom; when they do not fit, the
// earliest give way.
func (p *searchPane) tableLines(room int) []string {
	s := p.styles
	if p.pr == nil || len(p.pr.Probes) == 0 {
		return []string{s.Muted.Render("the probes will fill in here")}
	}
	pk := runtext.PercentileKey(p.pr.SLO.Percentile)
	head := s.Label.Render(strings.TrimRight(fmt.Sprintf(searchRowFormat, "#", "step", "rate", "ok/s", pk+" ms", "limited", "failed", "verdict"), " "))
	rows := p.pr.Probes
	hidden := 0
	if len(rows) > room-1 && room > 2 {
		hidden = len(rows) - (room - 2)
		rows = rows[hidden:]
	}
	lines := []string{head}
	if hidden > 0 {
		lines = append(lines, s.Muted.Render(fmt.Sprintf("… %d earlier probes", hidden)))
	}
	for _, pr := range rows {
		verdict := runtext.ProbeVerdict(pr)
		cells := fmt.Sprintf(searchRowFormat, strconv.Itoa(pr.N), pr.Step, textfmt.PerSec(pr.Rate), textfmt.RPS(pr.Goodput),
			textfmt.Ms(pr.LatencyMs), textfmt.Percent(pr.LimitedPct), textfmt.Percent(pr.FailedPct), "")
		verdict = textfmt.Truncate(verdict, max(p.width-cellWidth(cells), 4))
		switch {
		case pr.Superseded:
			verdict = s.Muted.Render(verdict)
		case pr.Verdict == "pass":
			verdict = s.Good.Render(verdict)
		case pr.Verdict == "fail":
			verdict = s.Bad.Render(verdict)
		}
		lines = append(lines, cells+verdict)
	}
	return lines
}

// bottomLines are the best answer so far (or, at the end, the answer and the limiter), then
// the keys.
func (p *searchPane) bottomLines() []string {
	s := p.styles
	var lines []string
	if p.pr != nil && p.pr.Result != nil {
		r := p.pr.Result
		lines = append(lines, wrapParts(strings.Fields("Answer: "+r.Answer.Text), " ", p.width)...)
		if l := r.Limiter; l != nil {
			text := "limiter: " + l.Kind
			if l.Kind == "token bucket" {
				text = "limiter: " + runtext.LimiterSummary(l)
			}
			if l.Nginx != "" {
				text += "; nginx limit_req " + l.Nginx
			}
			lines = append(lines, wrapParts(strings.Fields(text), " ", p.width)...)
		}
		if p.done != nil {
			switch {
			case p.done.Err != nil:
				lines = append(lines, s.Bad.Render("! "+textfmt.Truncate(textfmt.OneLine(p.done.Err.Error()), p.width-2)))
			case p.done.Path != "":
				lines = append(lines, s.Label.Render("snapshot ")+textfmt.Truncate(p.done.Path, p.width-9)+s.Muted.Render(" (written on exit)"))
			}
		}
		return append(lines, s.Muted.Render("press any key to exit"))
	}
	best := "best so far: none yet"
	if p.pr != nil && p.pr.Good > 0 {
		best = "best so far: " + s.Good.Render(textfmt.PerSec(p.pr.Good))
		for _, pr := range p.pr.Probes {
			if pr.Rate == p.pr.Good && pr.Verdict == "pass" && !pr.Superseded {
				best += fmt.Sprintf(" (goodput %s ok/s)", textfmt.RPS(pr.Goodput))
			}
		}
	}
	lines = append(lines, "", best)
	if p.stopping || (p.pr != nil && p.pr.Stopping) {
		return append(lines, s.Warn.Render("stopping: the probe in progress is cut short; the best answer so far is kept")+s.Muted.Render("  (q again: leave now)"))
	}
	return append(lines, p.footer)
}

// helpLines say what the probe table means.
func (p *searchPane) helpLines() []string {
	return []string{
		p.styles.Section.Render("How the search goes"),
		"Each probe holds one rate: a settle window (not counted), then a measured window.",
		"It passes when the SLO holds; rates double until one fails, then the search",
		"bisects [good, bad] until the gap is within the precision. A probe with 429s",
		"tells the limiter's accepted rate, which is probed next.",
		"ok/s: successful answers per second (goodput). limited/failed: shares of answers.",
		"backlog: the node answered clearly less than was sent (a queue is building).",
		"superseded: a later probe contradicted it (a burst absorbed a short probe);",
		"the later one counts. q stops the search and keeps the best answer so far.",
	}
}
