package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
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

// section is one pane placed in a column: how many lines it wants and how it draws itself.
type section struct {
	id   int // which box, in the wide layout's render cache
	want int
	grow bool // takes what the others leave
	gap  bool // a blank line above it, when there is room
	size func(width, height int)
	view func() string
}

// render draws the whole frame for the current size.
func (d *Dashboard) render() string {
	d.c.state = d.state()
	d.footer.inputOpen, d.footer.quitting, d.footer.done = d.inputOpen, d.quitting, d.done
	d.footer.SetSize(d.width, 0)
	d.header.SetSize(d.width, headerLines)
	wide := d.width >= wideWidth && d.height >= wideHeight
	d.throughput.wide, d.latency.wide, d.status.wide, d.errors.wide, d.events.wide = wide, wide, wide, wide, wide
	d.status.maxCodes, d.throughput.chartRows = compactCodes, 1
	if wide {
		d.status.maxCodes = wideCodes
		d.throughput.chartRows = min(max(d.height/6, 3), 8)
	}
	footer := d.footer.View()
	bodyHeight := max(d.height-headerLines-lipgloss.Height(footer), 0)
	body := d.compactBody(bodyHeight)
	if wide {
		body = d.wideBody(bodyHeight)
	}
	frame := strings.Join(clip(strings.Split(d.header.View()+"\n"+body+"\n"+footer, "\n"), d.height), "\n")
	// From 80 columns up every pane fits its width (the tests hold it to that), so the frame
	// is not measured again: at 200x60 that would cost more than drawing it. Below, lines are
	// cut here. (Bubble Tea v2 would clip them too, drawing into a buffer the terminal's size;
	// the height is cut above because an inline frame taller than the terminal would scroll.)
	if d.width < minWidth {
		frame = lipgloss.NewStyle().MaxWidth(d.width).Render(frame)
	}
	return frame
}

// compactBody stacks the panes in one column, most important first: each gets what it wants
// while there is room, blank lines between them only when everything fits, and the events
// list takes what is left.
func (d *Dashboard) compactBody(height int) string {
	secs := []section{
		{want: d.throughput.Lines(), gap: true, size: d.throughput.SetSize, view: d.throughput.View},
		{want: d.latency.Lines(), gap: true, size: d.latency.SetSize, view: d.latency.View},
		{want: d.status.Lines(), gap: true, size: d.status.SetSize, view: d.status.View},
		{want: d.errors.Lines(), size: d.errors.SetSize, view: d.errors.View},
		{want: 2, grow: true, gap: true, size: d.events.SetSize, view: d.events.View},
	}
	need := 0
	for _, s := range secs {
		need += s.want
		if s.gap {
			need++
		}
	}
	gaps := need <= height
	var lines []string
	for _, s := range secs {
		if s.gap && gaps {
			lines = append(lines, "")
		}
		h := min(s.want, height-len(lines))
		if s.grow {
			h = height - len(lines)
		}
		if h <= 0 {
			break
		}
		s.size(d.width, h)
		lines = append(lines, strings.Split(s.view(), "\n")...)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(clip(lines, height), "\n")
}

// wideBody puts the panes in two columns of boxes: rate and latency on the left, status codes,
// errors, the requests of the mix (when it has two or more) and events on the right. The stage
// list and the events list grow into the room.
func (d *Dashboard) wideBody(height int) string {
	height-- // a blank line under the header
	leftW := d.width / 2
	left := d.boxes(leftW, height, []section{
		{id: boxThroughput, want: d.throughput.Lines(), size: d.throughput.SetSize, view: d.throughput.View},
		{id: boxLatency, want: d.latency.Lines(), size: d.latency.SetSize, view: d.latency.View},
		{id: boxStages, grow: true, size: d.stages.SetSize, view: d.stages.View},
	})
	rightPanes := []section{
		{id: boxStatus, want: d.status.Lines(), size: d.status.SetSize, view: d.status.View},
		{id: boxErrors, want: min(d.errors.Lines(), 10), size: d.errors.SetSize, view: d.errors.View},
	}
	if n := d.requests.Lines(); n > 0 {
		rightPanes = append(rightPanes, section{id: boxRequests, want: n, size: d.requests.SetSize, view: d.requests.View})
	}
	rightPanes = append(rightPanes, section{id: boxEvents, grow: true, size: d.events.SetSize, view: d.events.View})
	right := d.boxes(d.width-leftW, height, rightPanes)
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
// other change. Fixed boxes get what they want; the growing one gets the rest.
func (d *Dashboard) boxes(width, height int, panes []section) []string {
	box := d.styles.Box
	fx, fy := box.GetFrameSize()
	heights := make([]int, len(panes))
	rest := height
	for i, p := range panes {
		if !p.grow {
			heights[i] = p.want
			rest -= p.want + fy
		}
	}
	for i, p := range panes {
		if p.grow {
			heights[i] = max(rest-fy, 1)
		}
	}
	var out []string
	left := height
	for i, p := range panes {
		h := min(heights[i], left-fy)
		if h <= 0 {
			continue
		}
		p.size(width-fx, h)
		content := p.view()
		c, ok := d.boxCache[p.id]
		if !ok || c.content != content || c.width != width || c.height != h {
			rendered := box.Width(width).Height(h + fy).MaxHeight(h + fy).Render(content)
			c = cachedBox{content: content, width: width, height: h, lines: strings.Split(rendered, "\n")}
			d.boxCache[p.id] = c
		}
		out = append(out, c.lines...)
		left -= h + fy
	}
	return out
}
