package tui

import (
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// connsPane is the compact layout's line of the connections (see connsLine); the wide layout
// has it under the errors. A run of several targets has a row of them in the targets' table.
type connsPane struct {
	paneBase
}

func (p *connsPane) Lines() (least, most int) {
	if p.wide || p.c.sideBySide() != nil {
		return 0, 0
	}
	return 1, 1
}

func (p *connsPane) View() string { return connsLine(p.c, p.width) }

// connsLine: "conns     4 dialed · 2 re-dialed · dial mean 0.312 ms", the connections the run
// opened so far and their setup time (kept apart from latency), at most width cells. A
// connection dialed again after one closed under its calls (WebSocket) is loud; re-dials are
// said over WebSocket even at 0, where a connection can drop, and left out over HTTP, where
// they stay 0.
func connsLine(c *common, width int) string {
	conns, s := &c.st.Total.Connections, c.styles
	parts := []string{textfmt.Int(conns.Dialed) + " dialed"}
	if conns.Redialed > 0 {
		parts = append(parts, s.Warn.Render(textfmt.Int(conns.Redialed)+" re-dialed"))
	} else if isWebSocketURL(c.st.Target) {
		parts = append(parts, "0 re-dialed")
	}
	if conns.Dialed > 0 {
		parts = append(parts, "dial mean "+textfmt.Ms(conns.DialMean)+" ms")
	}
	return textfmt.Truncate(c.label("conns", labelWidth)+strings.Join(parts, " · "), width)
}

// isWebSocketURL reports whether a target's display URL is ws:// or wss://.
func isWebSocketURL(u string) bool {
	scheme, _, _ := strings.Cut(u, "://")
	return strings.EqualFold(scheme, "ws") || strings.EqualFold(scheme, "wss")
}

// connsCell is a target's connections dialed, and how many of them again after a close
// ("4 +2"): the targets' table's row of them.
func connsCell(p *targetsPane, st *engine.Stats) targetCell {
	c := &st.Total.Connections
	text := textfmt.Int(c.Dialed)
	if c.Redialed > 0 {
		text += " " + p.c.styles.Warn.Render("+"+textfmt.Int(c.Redialed))
	}
	return targetCell{text: text, value: float64(c.Dialed), ok: true}
}

// dialCell is a target's mean connection setup time (TCP and TLS), ms.
func dialCell(_ *targetsPane, st *engine.Stats) targetCell {
	c := &st.Total.Connections
	if c.Dialed == 0 {
		return targetCell{text: "-"}
	}
	return targetCell{text: textfmt.Ms(c.DialMean), value: c.DialMean, ok: true}
}
