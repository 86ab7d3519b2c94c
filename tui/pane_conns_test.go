package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
)

// TestConnsLine: the connections dialed so far and their mean setup time, and over WebSocket
// how many were dialed again (0 too: a connection there can drop); HTTP leaves re-dials out.
func TestConnsLine(t *testing.T) {
	tests := []struct {
		name   string
		target string
		c      engine.Connections
		want   string
	}{
		// HTTP keeps its connections: re-dials are not its figure.
		{"http", "http://127.0.0.1:8545", engine.Connections{Dialed: 32, DialMean: 0.412}, "conns     32 dialed · dial mean 0.412 ms"},
		// WebSocket that never dropped says so.
		{"ws", "ws://127.0.0.1:8546", engine.Connections{Dialed: 4, DialMean: 0.2}, "conns     4 dialed · 0 re-dialed · dial mean 0.200 ms"},
		// A node dropping connections: the re-dials (among the dialed).
		{"ws drops", "wss://node/ws", engine.Connections{Dialed: 18, Redialed: 14, DialMean: 1.5}, "conns     18 dialed · 14 re-dialed · dial mean 1.50 ms"},
		// Before the first connection: no mean to show.
		{"nothing yet", "http://h", engine.Connections{}, "conns     0 dialed"},
	}
	for _, tt := range tests {
		d, _ := testDashboard(t, func(st *engine.Stats) { st.Target, st.Total.Connections = tt.target, tt.c })
		if got := ansi.Strip(connsLine(&d.c, 80)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestConnsShownWithRoom: at 80x24 the connections have a line of their own under the
// errors; when rows are short (60x18, or a watched node's alarms at 80x24) it gives way; the
// wide layout has it under the errors, the targets' table a row per target.
func TestConnsShownWithRoom(t *testing.T) {
	d, _ := testDashboard(t, nil)
	if v := view(d); !strings.Contains(v, "conns     32 dialed") {
		t.Errorf("80x24 lacks the connections:\n%s", v)
	}
	for _, size := range [][2]int{{60, 18}} {
		d.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		if v := view(d); strings.Contains(v, "conns") {
			t.Errorf("%dx%d shows the connections with no row to spare:\n%s", size[0], size[1], v)
		}
	}
	watchedNode, _ := testDashboard(t, watched)
	if v := view(watchedNode); strings.Contains(v, "conns") || !strings.Contains(v, "! metrics:") {
		t.Errorf("80x24 with a watched node gives the connections' line before the node's alarm:\n%s", v)
	}
	d.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if v := view(d); !strings.Contains(v, "conns     32 dialed") {
		t.Errorf("160x48 lacks the connections:\n%s", v)
	}
	side, _ := testDashboard(t, sideBySide(2))
	side.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if v := view(side); !strings.Contains(v, "conns            32        32") || !strings.Contains(v, "dial ms       0.412     0.412") {
		t.Errorf("160x48 with two targets lacks their connections:\n%s", v)
	}
}
