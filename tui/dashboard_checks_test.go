package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// TestDashboardChecksAndCosts: a run with expect rules and costs shows, at 80x24, the cost
// units sent and answered ok per second beside the rate, the invalid answers in the errors
// line and in the stages and requests tables; in the wide layout, the invalid calls by rule.
// A run without rules or costs shows none of it (the fixture, as the goldens show).
func TestDashboardChecksAndCosts(t *testing.T) {
	tests := []struct {
		name   string
		size   [2]int
		checks bool
		want   []string // what the view shows, or with checks off must not
	}{
		// The smallest screen the issue names: cost/s beside rps, invalid in errors and stages.
		{"80x24", [2]int{80, 24}, true, []string{"cost      sent 320000/s  ok 298765/s", "invalid 1290",
			"failed invalid cost/s", "7    1200 301234", "failed invalid"}},
		// Wide: the rules broken, by rule, with their counts.
		{"130x40", [2]int{130, 40}, true, []string{"invalid       1234  result present", `56  result.transactions.0.hash matches`, "7  result nonempty"}},
		// Without rules or costs: nothing about them.
		{"80x24 without", [2]int{80, 24}, false, []string{"cost      sent", "invalid 1", "failed invalid"}},
		{"130x40 without", [2]int{130, 40}, false, []string{"cost      sent", "failed invalid", "invalid   "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edit := withChecks
			if !tt.checks {
				edit = nil
			}
			d, _ := testDashboard(t, edit)
			d.Update(tea.WindowSizeMsg{Width: tt.size[0], Height: tt.size[1]})
			v := view(d)
			for _, w := range tt.want {
				if strings.Contains(v, w) != tt.checks {
					t.Errorf("%q shown %v, want %v:\n%s", w, !tt.checks, tt.checks, v)
				}
			}
			checkFits(t, v, tt.size[0], tt.size[1])
		})
	}
}

// TestDashboardFailingInvalid: when most of the last second's answers broke an expect rule,
// the failing alarm names them as the cause: a node answering null fast must look failing.
func TestDashboardFailingInvalid(t *testing.T) {
	d, _ := testDashboard(t, func(st *engine.Stats) {
		withChecks(st)
		st.Last.OK, st.Last.Limited, st.Last.Failed, st.Last.Invalid = 10, 0, 190, 190
		st.Last.Errors = map[string]int64{"timeout": 2}
	})
	if v := view(d); !strings.Contains(v, "! FAILING: 95.0% of the last second failed (invalid 190)") {
		t.Errorf("no alarm naming the invalid answers:\n%s", v)
	}
}
