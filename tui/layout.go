package tui

import (
	"sort"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// The wide layout (two columns of boxed panes, taller charts, more rows) starts at this size;
// below it everything is one borderless column that fits 80x24.
const (
	wideWidth  = 120
	wideHeight = 36
)

// minWidth is the narrowest terminal the layout is made for (80x24).
const minWidth = 80

// Rows of status codes shown at most, by layout.
const (
	compactCodes = 4
	wideCodes    = 8
)

// pane is what the layout needs of a pane: its size, how many lines it needs at least and can
// use at most at its width, and its view at the size it was given.
type pane interface {
	SetSize(width, height int)
	Lines() (least, most int)
	View() string
}

// paneBase is what every pane of the body holds: the run as the dashboard sees it, the room
// the layout gave it, and whether it is boxed with a title (the wide layout). The layout sets
// them in Update; the pane's View only reads them.
type paneBase struct {
	c             *common
	width, height int
	wide          bool
}

// SetSize gives the pane its room: width cells, height lines (0 while the layout asks what
// it needs at that width).
func (p *paneBase) SetSize(width, height int) { p.width, p.height = width, height }

// title is a pane's first line in the wide layout, where each pane is boxed under its name: the
// name and a muted note, cut to the width. The compact layout names panes by their rows' labels
// instead, so there it is nil. Every pane's title is drawn here, so they all read alike.
func (p *paneBase) title(name, note string) []string {
	if !p.wide {
		return nil
	}
	s := p.c.styles
	line := s.Section.Render(name)
	if note != "" {
		line += s.Muted.Render(textfmt.Truncate(note, p.width-lipgloss.Width(name)))
	}
	return []string{line}
}

// titleLines is the lines title takes: one in the wide layout, none in the compact one.
func (p *paneBase) titleLines() int {
	if p.wide {
		return 1
	}
	return 0
}

// section is one pane placed in a column.
type section struct {
	id   int // which box, in the wide layout's render cache
	pane pane
	// rank orders who gets rows first: every section gets its least by rank, then its most by
	// rank. Rank 0 is the core: in the compact layout it is shown even cut short.
	rank int
	grow bool // takes what the others leave (its most does not count)
	gap  bool // compact layout: a blank line above it, when everything fits
	// whole: what it can use beyond its least comes whole or not at all (the latency bars:
	// half a histogram would read as one), so rows it could not fill go to the others.
	whole bool
	// spare: shown only with rows to spare once every other section has its most, before the
	// growing one takes the rest (the connections' line: good to know, never at an alarm's
	// cost).
	spare bool
}

// render lays the panes out for the current size and state and draws the whole frame. It runs
// in Update (redraw), which owns every change it makes (the panes' sizes, the box cache); the
// panes' views only read.
func (d *Dashboard) render() string {
	wide := d.arrange()
	footer := d.footer.View()
	bodyHeight := max(d.height-d.header.Lines()-lipgloss.Height(footer), 0)
	var body string
	if wide {
		body = d.wideBody(bodyHeight)
	} else {
		body = d.compactBody(bodyHeight)
	}
	frame := strings.Join(clip(strings.Split(d.header.View()+"\n"+body+"\n"+footer, "\n"), d.height), "\n")
	// From 60 columns up every pane fits its width (the tests hold it to that, at every size),
	// so the frame is not measured again: at 200x60 that would cost more than drawing it.
	// Below, lines are cut here. (Bubble Tea v2 would clip them too, drawing into a buffer the
	// terminal's size; the height is cut above because an inline frame taller than the
	// terminal would scroll.)
	if d.width < narrowest {
		frame = lipgloss.NewStyle().MaxWidth(d.width).Render(frame)
	}
	return frame
}

// bodyPanes are the panes of the body, which share what paneBase holds: the one list New gives
// the run to and arrange the layout to, so a pane added here gets both.
func (d *Dashboard) bodyPanes() []*paneBase {
	return []*paneBase{&d.throughput.paneBase, &d.latency.paneBase, &d.status.paneBase, &d.errors.paneBase,
		&d.conns.paneBase, &d.events.paneBase, &d.stages.paneBase, &d.requests.paneBase, &d.node.paneBase,
		&d.targets.paneBase, &d.answers.paneBase, &d.subs.paneBase}
}

// arrange tells the panes what they draw from besides the run: the run state as shown, the
// footer's state, the width, and the layout (boxed or not, how many codes, how tall the chart).
// It reports whether the layout is the wide one.
func (d *Dashboard) arrange() (wide bool) {
	d.c.state = d.state()
	d.footer.inputOpen, d.footer.quitting, d.footer.done = d.inputOpen, d.quitting, d.done
	d.footer.SetSize(d.width, 0)
	d.header.SetSize(d.width, d.header.Lines())
	wide = d.width >= wideWidth && d.height >= wideHeight
	for _, p := range d.bodyPanes() {
		p.wide = wide
	}
	d.status.maxCodes, d.throughput.chartRows = compactCodes, 1
	if wide {
		d.status.maxCodes = wideCodes
		d.throughput.chartRows = min(max(d.height/6, 3), 8)
	}
	return wide
}

// narrowest is the narrowest terminal every pane is laid out to fit by itself.
const narrowest = 60

// compactBody stacks the panes in one column, most important first. The core (rate, latency,
// status codes, errors) always shows; the node's resources (when watched) and the
// subscriptions (when held) come next, then
// the events, the stages and the requests of a mix take the rows to spare, blank lines go
// between panes only when everything fits, and the events list takes what is left.
func (d *Dashboard) compactBody(height int) string {
	secs := []section{
		{pane: &d.throughput, gap: true},
		{pane: &d.latency, gap: true, whole: true},
		{pane: &d.status, gap: true},
		{pane: &d.errors},
		{pane: &d.conns, spare: true},
		{pane: &d.node, rank: 1, gap: true},
		{pane: &d.subs, rank: 1, gap: true},
		{pane: &d.stages, rank: 2, gap: true},
		{pane: &d.requests, rank: 3, gap: true},
		{pane: &d.events, rank: 1, grow: true, gap: true},
	}
	if d.c.sideBySide() != nil {
		secs = d.compactTargetSections()
	}
	heights, gaps := allot(d.width, height, 0, secs)
	var lines []string
	for i, s := range secs {
		if heights[i] <= 0 {
			continue
		}
		if s.gap && gaps {
			lines = append(lines, "")
		}
		s.pane.SetSize(d.width, heights[i])
		lines = append(lines, clip(strings.Split(s.pane.View(), "\n"), heights[i])...)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(clip(lines, height), "\n")
}

// allot shares height rows of a column width cells wide among sections, each shown with frame
// rows around it (a box's borders; 0 for none): every section its least by rank while it fits
// (a box that does not fit whole is left out, so none loses its bottom border), then its most
// by rank, then the spare ones their least while it fits, then the growing one the rest. gaps reports whether there is room for a blank line
// above each section that asks for one (only when every section got its most).
func allot(width, height, frame int, secs []section) (heights []int, gaps bool) {
	heights = make([]int, len(secs))
	order := make([]int, len(secs))
	for i := range secs {
		order[i] = i
		secs[i].pane.SetSize(width, 0)
	}
	sort.SliceStable(order, func(a, b int) bool { return secs[order[a]].rank < secs[order[b]].rank })
	left := height
	for _, i := range order {
		least, _ := secs[i].pane.Lines()
		switch {
		case least <= 0 || secs[i].spare:
			// Nothing to show (the requests of a mix of one).
		case least+frame <= left:
			heights[i] = least
			left -= least + frame
		case secs[i].rank == 0 && frame == 0 && left > 0:
			heights[i], left = left, 0
		}
	}
	full, wantGaps := true, 0
	for _, i := range order {
		if heights[i] == 0 || secs[i].grow {
			continue
		}
		_, most := secs[i].pane.Lines()
		more := min(most-heights[i], left)
		if secs[i].whole && more < most-heights[i] {
			more = 0
		}
		if more > 0 {
			heights[i] += more
			left -= more
		}
		full = full && heights[i] >= most
	}
	for _, i := range order {
		if least, _ := secs[i].pane.Lines(); secs[i].spare && least > 0 {
			if least+frame <= left {
				heights[i] = least
				left -= least + frame
			}
			full = full && heights[i] > 0
		}
	}
	for i, s := range secs {
		if heights[i] > 0 && s.gap {
			wantGaps++
		}
	}
	if gaps = full && frame == 0 && left >= wantGaps; gaps {
		left -= wantGaps
	}
	for i, s := range secs {
		if s.grow && heights[i] > 0 {
			heights[i] += left
			left = 0
		}
	}
	return heights, gaps
}

// wideBody puts the panes in two columns of boxes: rate, latency and the stages on the left,
// status codes, errors, the node (when watched), the subscriptions (when held), the requests
// of the mix (when it has two or more) and events on the right. The stage list and the events
// list grow into the room.
func (d *Dashboard) wideBody(height int) string {
	height-- // a blank line under the header
	leftW := d.width / 2
	leftSecs := []section{
		{id: boxThroughput, pane: &d.throughput},
		{id: boxLatency, pane: &d.latency, whole: true},
		{id: boxStages, pane: &d.stages, rank: 1, grow: true},
	}
	rightSecs := []section{
		{id: boxStatus, pane: &d.status},
		{id: boxErrors, pane: &d.errors, rank: 1},
		{id: boxNode, pane: &d.node, rank: 1},
		{id: boxSubs, pane: &d.subs, rank: 1},
		{id: boxRequests, pane: &d.requests, rank: 2},
		{id: boxEvents, pane: &d.events, rank: 3, grow: true},
	}
	if d.c.sideBySide() != nil {
		leftSecs, rightSecs = d.wideTargetSections()
	}
	left := d.boxes(leftW, height, leftSecs)
	right := d.boxes(d.width-leftW, height, rightSecs)
	// Each column is exactly its width on every line, so the two join line by line: no need
	// to measure them again (lipgloss.JoinHorizontal would).
	blank := strings.Repeat(" ", leftW)
	lines := make([]string, 0, height+1)
	lines = append(lines, "")
	for i := range max(len(left), len(right)) {
		l, r := blank, ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		lines = append(lines, l+r)
	}
	return strings.Join(lines, "\n")
}

// The boxes of the wide layout, for the render cache.
const (
	boxThroughput = iota + 1
	boxLatency
	boxStages
	boxStatus
	boxErrors
	boxRequests
	boxEvents
	boxNode
	boxTargets
	boxAnswers
	boxSubs
)

// cachedBox is a pane's last boxed rendering: drawing a border measures every line of the
// content, and most boxes (stages, events) do not change from one frame to the next.
type cachedBox struct {
	content       string
	width, height int
	lines         []string
}

// boxes stacks panes in bordered boxes, a column width × height cells, and returns its lines.
// Content sizes come from the box style's frame, so a different border or padding needs no
// other change.
func (d *Dashboard) boxes(width, height int, secs []section) []string {
	box := d.styles.Box
	fx, fy := box.GetFrameSize()
	heights, _ := allot(width-fx, height, fy, secs)
	var out []string
	for i, s := range secs {
		h := heights[i]
		if h <= 0 {
			continue
		}
		s.pane.SetSize(width-fx, h)
		content := strings.Join(clip(strings.Split(s.pane.View(), "\n"), h), "\n")
		c, ok := d.boxCache[s.id]
		if !ok || c.content != content || c.width != width || c.height != h {
			rendered := box.Width(width).Height(h + fy).MaxHeight(h + fy).Render(content)
			c = cachedBox{content: content, width: width, height: h, lines: strings.Split(rendered, "\n")}
			d.boxCache[s.id] = c
		}
		out = append(out, c.lines...)
	}
	return out
}
