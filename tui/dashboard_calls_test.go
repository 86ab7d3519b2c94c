package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// TestDashboardCalls: the dashboard shows a run's failed calls per request (wide layout) and
// the answers' faults by kind (errors pane, both layouts), within the screen.
func TestDashboardCalls(t *testing.T) {
	d, _ := testDashboard(t, func(st *engine.Stats) {
		faults := map[string]int64{"missing": 1749, "unknown id": 12}
		st.Total.Calls = engine.CallStats{Sent: 12000, OK: 9000, Failed: 1749, Faults: faults}
		gs := st.Total.ByRequest["getSlot"]
		gs.Calls = engine.CallStats{Sent: 5247, OK: 3498, Failed: 1749, Faults: faults}
		st.Total.ByRequest["getSlot"] = gs
	})
	for _, size := range [][2]int{{80, 24}, {120, 36}, {160, 48}} {
		d.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := view(d)
		checkFits(t, v, size[0], size[1])
		if !strings.Contains(v, "missing") {
			t.Errorf("%dx%d does not show the missing calls:\n%s", size[0], size[1], v)
		}
		if size[0] >= 120 && !regexp.MustCompile(`getSlot .* 3 +1749 │`).MatchString(v) {
			t.Errorf("%dx%d: the requests table lacks the failed calls:\n%s", size[0], size[1], v)
		}
	}
}
