package tui

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// lineFormat is one per-second line: fixed widths so columns stay aligned for a whole run, and at
// most 80 columns with the SATURATED flag. The stage is not a column (an event line announces
// each stage as it starts, and the target shows its rate), nor are JSON-RPC errors (they are
// among the failed, and the final report counts them by code): that is what fits.
const lineFormat = "%5s %7s %6s %5s %5s %5s %6s %6s %5s %5s %5s%s"

// LinePrinter writes one line per completed second of a run, for non-terminals, --headless and SSH.
//
// The engine publishes Stats several times a second and keeps only the most recent seconds in
// Stats.Timeline, so the printer remembers the last second it printed (Row.T), not a position in
// the slice: each second is printed exactly once, in order, however the window slides. A
// LinePrinter is used from one goroutine.
type LinePrinter struct {
	w    *textfmt.Writer
	mode engine.Mode
	// lastT is the last timeline second printed; -1 before the first.
	lastT int
	// lastEventT is the time of the newest event taken; seenAtLast holds the events taken at
	// exactly that time, so two events logged in the same instant are both printed, once.
	lastEventT float64
	seenAtLast map[string]bool
	// pending are new events waiting for the row they follow.
	pending []engine.Event
	// headAt is the second whose row the last head line followed (see printHead); headShown
	// is set once there was one.
	headAt    int
	headShown bool
	// answers are the comparison's counts last printed (several targets): a line is printed
	// when they change in anything but matches.
	answers answers.Counts
	// redials are the connections dialed again last printed, per target (see printRedials).
	redials []int64
}

// NewLinePrinter makes a printer writing to w; event lines wrap at width cells (0:
// textfmt.DefaultWidth), the per-second lines fit 80.
func NewLinePrinter(w io.Writer, width int) *LinePrinter {
	return &LinePrinter{w: textfmt.NewWriter(w, width), lastT: -1, lastEventT: math.Inf(-1), seenAtLast: map[string]bool{}}
}

// Err is the first error writing to the output, if any; after it the printer writes nothing.
func (p *LinePrinter) Err() error {
	if p.w.Err() != nil {
		return fmt.Errorf("write run lines: %w", p.w.Err())
	}
	return nil
}

// Header writes the column header once (call at start), given the run's name, target and mode.
func (p *LinePrinter) Header(name, target string, mode engine.Mode) {
	p.mode = mode
	if name == "" {
		name = "(unnamed)"
	}
	p.w.Paragraph("", "  ", fmt.Sprintf("rpcstress %s → %s (%s)", safetext.Line(name), safetext.Line(target), runtext.ModeText(mode)))
	p.w.Line(strings.TrimRight(fmt.Sprintf(lineFormat, "t", "target", "rps",
		"p50ms", "p90ms", "p99ms", "2xx", "lim", "fail", "infl", "drop", ""), " "))
}

// HeaderTargets writes the header of a run that sends to several targets side by side (call at
// start instead of Header): the run, each target's letter, name and display URL, and the
// columns.
func (p *LinePrinter) HeaderTargets(name string, targets []engine.Target, mode engine.Mode) {
	p.mode = mode
	if name == "" {
		name = "(unnamed)"
	}
	p.w.Paragraph("", "  ", fmt.Sprintf("rpcstress %s (%s), %d targets side by side:", safetext.Line(name),
		runtext.ModeText(mode), len(targets)))
	for i, t := range targets {
		p.w.Paragraph("  ", "    ", namedLabel(i, t.Name, math.MaxInt)+" → "+safetext.Line(t.DisplayURL))
	}
	p.w.Line(strings.TrimRight(fmt.Sprintf(targetLineFormat, "t", padRight("target", targetNameWidth), "rps",
		"p50ms", "p99ms", "2xx", "lim", "fail", "infl", "drop", ""), " "))
}

// Update is called with each published engine.Stats (several per second); it prints every
// timeline row (st.Timeline, oldest first, each Row.T) that it has not printed yet, exactly once,
// in order; it also prints an event line for new entries in st.Events, once each, placed among
// the rows by time. When st.Done is set, everything still held is printed.
func (p *LinePrinter) Update(st *engine.Stats) {
	if st == nil {
		return
	}
	p.pending = append(p.pending, p.newEvents(st.Events)...)
	if len(st.Targets) > 1 {
		p.updateTargets(st)
		return
	}
	rows := st.Timeline
	if st.Done {
		rows = runtext.ReportedRows(rows) // the sliver of a second the run ended in, if it holds nothing
	}
	printed := false
	for _, r := range p.newRows(rows) {
		if r.T <= p.lastT {
			continue // out of order within one view: never print a second twice
		}
		// A row covers [T, T+1) and is complete only at its end, so an event at 12.0s comes
		// after row 11 and before row 12.
		p.printEvents(float64(r.T + 1))
		p.printRow(&r)
		p.printSubs(st.Subs, &r)
		p.printHead(st.Head, rows, r.T)
		printed = true
	}
	if printed || st.Done {
		p.printRedials([]*engine.Stats{st})
	}
	// Rows are published a moment after their second ends, so an event is held until the row
	// before it is out (at most that moment): a stage change then follows the last second of
	// the old stage, as it happened. The second in progress cannot hold events back any longer.
	until := float64(p.lastT + 2)
	if st.Done {
		until = math.Inf(1)
	}
	p.printEvents(until)
}

// printEvents prints the pending events that happened before t.
func (p *LinePrinter) printEvents(t float64) {
	n := 0
	for n < len(p.pending) && p.pending[n].T < t {
		p.printEvent(p.pending[n])
		n++
	}
	p.pending = p.pending[:copy(p.pending, p.pending[n:])]
}

// newRows returns the rows after the last one printed; printRow moves the mark.
func (p *LinePrinter) newRows(timeline []engine.Row) []engine.Row {
	var out []engine.Row
	for _, r := range timeline {
		if r.T > p.lastT {
			out = append(out, r)
		}
	}
	return out
}

// newEvents returns the events not taken yet and records them as taken. It goes by time, not
// position, so a windowed or repeated event list never prints an event twice.
func (p *LinePrinter) newEvents(events []engine.Event) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		key := e.Kind + "\x00" + e.Detail
		switch {
		case e.T > p.lastEventT:
			p.lastEventT = e.T
			clear(p.seenAtLast)
		case e.T < p.lastEventT || p.seenAtLast[key]:
			continue
		}
		p.seenAtLast[key] = true
		out = append(out, e)
	}
	return out
}

func (p *LinePrinter) printEvent(e engine.Event) {
	text := e.Detail
	// Stage events already say "stage 2/4: …"; others read better with their kind in front.
	if !strings.HasPrefix(e.Detail, e.Kind) {
		text = e.Kind + ": " + e.Detail
	}
	head := fmt.Sprintf("  ⟶ %.1fs ", e.T)
	p.w.Paragraph(head, "    ", textfmt.OneLine(text))
}

func (p *LinePrinter) printRow(r *engine.Row) {
	p.markRow(r.T)
	p.w.Line(formatRow(r, p.mode))
}

// markRow moves the mark to second t, saying which seconds before it were never seen.
func (p *LinePrinter) markRow(t int) {
	if t > p.lastT+1 {
		// Seconds the timeline window passed before this printer saw them (or that the engine
		// never published) are said to be missing rather than silently skipped.
		from, to := p.lastT+1, t-1
		if from == to {
			p.w.Printf("  … no row for %ds\n", from)
		} else {
			p.w.Printf("  … no rows for %ds–%ds\n", from, to)
		}
	}
	p.lastT = t
}

// formatRow lays out one second of the timeline.
func formatRow(r *engine.Row, mode engine.Mode) string {
	target := engine.Rate(r.TargetRate).String()
	if mode == engine.ModeClosed {
		target = "-" // closed loop has no target rate: connections set the pace
	}
	drop := ""
	if r.Dropped != 0 {
		drop = textfmt.Int(r.Dropped)
	}
	flag := ""
	if r.Saturated {
		flag = " SATURATED"
	}
	// A second without answers has no latency to show: 0 would read as instant answers.
	p50, p90, p99 := "-", "-", "-"
	if runtext.RowAnswered(r) > 0 {
		p50, p90, p99 = textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P90), textfmt.Ms(r.Latency.P99)
	}
	line := fmt.Sprintf(lineFormat, fmt.Sprintf("%ds", r.T), target, textfmt.RPS(r.RPS), p50, p90, p99,
		textfmt.Int(textfmt.Sum2xx(r.Status)), textfmt.Int(r.Limited), textfmt.Int(r.Failed),
		textfmt.Int(r.Inflight), drop, flag)
	return strings.TrimRight(line, " ")
}
