package tui

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// eventsPane lists the latest events of the run with their times: stage changes, rate
// changes, pauses, saves. The newest is at the bottom, as in a log.
type eventsPane struct {
	paneBase
}

// Lines is the least worth showing (the latest event) and the most the pane uses (them all).
func (p *eventsPane) Lines() (least, most int) {
	top := p.titleLines()
	return top + 1, top + max(len(p.c.st.Events), 1)
}

func (p *eventsPane) View() string {
	if p.height <= 0 {
		return ""
	}
	s := p.c.styles
	events := p.c.st.Events
	lines := p.title("Events", "")
	room := p.height - len(lines)
	if room <= 0 {
		return strings.Join(lines, "\n")
	}
	if len(events) == 0 {
		return strings.Join(append(lines, p.c.label("events", labelWidth)+s.Muted.Render("none yet")), "\n")
	}
	events = events[max(len(events)-room, 0):]
	for i, e := range events {
		if p.wide {
			lines = append(lines, p.eventText(e, 0))
			continue
		}
		lines = append(lines, p.c.groupLabel("events", i)+p.eventText(e, labelWidth))
	}
	return strings.Join(lines, "\n")
}

// eventText: "40.0s stage 2/3: 200/s for 1m0s" or "50.2s rate: target 220/s (was 200/s)".
func (p *eventsPane) eventText(e engine.Event, indent int) string {
	text := textfmt.OneLine(e.Detail)
	// Stage events already say "stage 2/3: …"; others read better with their kind in front.
	if !strings.HasPrefix(text, e.Kind) {
		text = e.Kind + ": " + text
	}
	when := padLeft(fmt.Sprintf("%.1fs", e.T), 7)
	return p.c.styles.Muted.Render(when) + " " + textfmt.Truncate(text, p.width-indent-8)
}
