package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
)

// subscribed gives the fixture two subscriptions: 200 newHeads subscribers with a few gaps
// and drops, and Solana slots refused now and then.
func subscribed(st *engine.Stats) {
	gaps, dups := int64(3), int64(0)
	st.Subs = []engine.SubStats{
		{Name: "newHeads", Method: "eth_subscribe", Subscribers: 200, Subscribed: 198, Subscribes: 204, Notifications: 12000,
			Gaps: &gaps, Duplicates: &dups, Reorgs: &dups, GapSubscribers: &gaps, Disconnects: map[string]int64{"close 1006": 6}},
		{Name: "slotSubscribe", Method: "slotSubscribe", Subscribers: 10, Subscribed: 10, Subscribes: 10, Notifications: 1500,
			Refused: map[string]int64{"-32005": 2}},
	}
	for i := range st.Timeline {
		r := &st.Timeline[i]
		r.Subs = []engine.SubRow{
			{Name: "newHeads", Subscribed: 198, Notifications: 198, PerSubscriber: 1, SpreadP50: 12.5, SpreadP99: 80 + float64(r.T), LagP50: 450, LagP99: 900},
			{Name: "slotSubscribe", Subscribed: 10, Notifications: 25, PerSubscriber: 2.5, SpreadP50: 1.2, SpreadP99: 3.4},
		}
	}
	st.Last = st.Timeline[len(st.Timeline)-1]
}

// TestSubsPane: a row a subscription with the last second's figures and the run's trouble;
// a narrow terminal drops figures from the end, never the name or how many hold one.
func TestSubsPane(t *testing.T) {
	d, _ := testDashboard(t, subscribed)
	for _, tt := range []struct {
		width int
		want  []string // in the newHeads row
		not   []string
	}{
		// Wide: everything.
		{200, []string{"newHeads", "198/200 held", "198/s", "1/s each", "spread p99 ", "lag p99 900 ms", "gaps 3", "drops 6"}, nil},
		// 80 columns: the rate per subscriber, at the end, gives way first.
		{80, []string{"newHeads", "198/200 held", "198/s", "spread p99 ", "gaps 3"}, []string{"/s each"}},
	} {
		d.subs.SetSize(tt.width, 3)
		view := ansi.Strip(d.subs.View())
		row := strings.Split(view, "\n")[0]
		for _, w := range tt.want {
			if !strings.Contains(row, w) {
				t.Errorf("%d wide: %q lacks %q", tt.width, row, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(row, n) {
				t.Errorf("%d wide: %q has %q", tt.width, row, n)
			}
		}
		if !strings.Contains(view, "refused 2") && tt.width == 200 {
			t.Errorf("the slots' refusals are not shown:\n%s", view)
		}
	}
}

// subscribedTargets makes the fixture a run of n targets side by side whose subscriptions
// (subscribed's) each target holds at its own node, target B with fewer held.
func subscribedTargets(n int) func(*engine.Stats) {
	return func(st *engine.Stats) {
		subscribed(st)
		sideBySide(n)(st)
		b := st.Targets[1]
		b.Subs = slices.Clone(b.Subs)
		b.Subs[0].Subscribed = 150
	}
}

// TestSubsPaneTargets: with several targets the pane has a row per subscription and target,
// the target's letter before the name and its own figures, and two targets' rows fit at 80x24
// beside the targets' table and the answers.
func TestSubsPaneTargets(t *testing.T) {
	d, _ := testDashboard(t, subscribedTargets(2))
	screen := view(d)
	for _, want := range []string{"A newHeads", "198/200 held", "B newHeads", "150/200 held"} {
		if !strings.Contains(screen, want) {
			t.Errorf("80x24 with two targets lacks %q:\n%s", want, screen)
		}
	}
	checkFits(t, screen, 80, 24)
	d.subs.SetSize(120, 5)
	rows := strings.Split(ansi.Strip(d.subs.View()), "\n")
	want := []string{"A newHeads", "B newHeads", "A slotSubscribe", "B slotSubscribe"}
	for i, w := range want {
		if i >= len(rows) || !strings.Contains(rows[i], w) {
			t.Errorf("row %d is not %s: %q", i+1, w, rows)
		}
	}
}
