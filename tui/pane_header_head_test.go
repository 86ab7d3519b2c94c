package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// followingHead makes the fixture a run that follows an EVM head, 3 blocks behind its
// reference node.
func followingHead(st *engine.Stats) {
	st.Head = &engine.HeadState{Chain: engine.ChainEVM, Every: 2 * time.Second,
		Target:  engine.HeadReading{Head: 20_123_456, Known: true, Reads: 30},
		Ref:     &engine.HeadReading{Head: 20_123_459, Known: true, Reads: 30},
		Advance: 5, AdvanceOver: 10 * time.Second}
}

// TestDashboardHeadLine: a run that follows the head shows it under the plan, at every size
// from 80 columns whole: the head, its progress and the lag; a stale head says so with its
// age and why (escaped: the reason may come from the node). A run without a chain has no
// such line.
func TestDashboardHeadLine(t *testing.T) {
	stale := func(st *engine.Stats) {
		followingHead(st)
		st.Head.Target.Failing, st.Head.Target.Age, st.Head.Target.LastErr = true, 12*time.Second, "HTTP 429 \x1b[2J"
	}
	tests := []struct {
		name string
		edit func(*engine.Stats)
		want string // the header's third line at 80 columns, escapes stripped
	}{
		// Head, progress, lag.
		{"following", followingHead, "evm head 20,123,456 (+5 in 10s)  lag 3 blocks"},
		// Stale: said loudly, the reason escaped.
		{"stale", stale, `evm head 20,123,456 (+5 in 10s) STALE 12s: HTTP 429 \x1b[2J  lag 3 blocks`},
		// Solana counts slots; a target ahead of its reference.
		{"ahead", func(st *engine.Stats) {
			followingHead(st)
			st.Head.Chain, st.Head.Ref.Head = engine.ChainSolana, 20_123_450
		}, "solana head 20,123,456 (+5 in 10s)  ahead 6 slots"},
		// No reference node, no span yet.
		{"alone", func(st *engine.Stats) {
			followingHead(st)
			st.Head.Ref, st.Head.AdvanceOver = nil, 0
		}, "evm head 20,123,456"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := testDashboard(t, tt.edit)
			for _, w := range []int{80, 200} {
				d.Update(tea.WindowSizeMsg{Width: w, Height: 24})
				lines := strings.Split(view(d), "\n")
				if got := strings.TrimRight(lines[2], " "); got != tt.want {
					t.Errorf("%d columns: third line %q, want %q", w, got, tt.want)
				}
			}
		})
	}
	d, _ := testDashboard(t, nil)
	if l := strings.Split(view(d), "\n")[2]; strings.Contains(l, "head") {
		t.Errorf("a run without a chain shows %q", l)
	}
}
