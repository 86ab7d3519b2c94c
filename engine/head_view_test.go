package engine

import (
	"testing"
	"time"
)

// heads makes timeline rows from heads (-1: no head that second), one per second, stage 0.
func heads(hs ...int64) []Row {
	rows := make([]Row, len(hs))
	for i, h := range hs {
		rows[i].T = i
		if h >= 0 {
			v := uint64(h)
			rows[i].Head = &v
		}
	}
	return rows
}

// TestHeadAdvance: the head's progress over the last seconds, from the rows that hold one.
func TestHeadAdvance(t *testing.T) {
	tests := []struct {
		name   string
		rows   []Row
		last   int
		window int
		adv    int64
		over   time.Duration
	}{
		// Nothing to tell before two rows hold a head.
		{"empty", nil, -1, 10, 0, 0},
		{"one", heads(5), 0, 10, 0, 0},
		// Two seconds apart.
		{"two", heads(5, 7), 1, 10, 2, time.Second},
		// Over the window only: rows 2..12 of 13.
		{"window", heads(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 12, 10, 10, 10 * time.Second},
		// Rows without a head are skipped at either end.
		{"gaps", heads(-1, 3, -1, 6, -1), 4, 10, 3, 2 * time.Second},
		// A head that went back (a node restarted on an older state) is a negative advance.
		{"back", heads(9, 4), 1, 10, -5, time.Second},
		// Up to an earlier row than the last.
		{"earlier", heads(1, 2, 3, 9), 2, 10, 2, 2 * time.Second},
	}
	for _, tt := range tests {
		adv, over := HeadAdvance(tt.rows, tt.last, tt.window)
		if adv != tt.adv || over != tt.over {
			t.Errorf("%s: advance %d over %s, want %d over %s", tt.name, adv, over, tt.adv, tt.over)
		}
	}
}

// TestStageHeads: per stage, the head's advance (from the head before the run, then second to
// second, each visit of a stage added up) and the largest lag behind the reference node.
func TestStageHeads(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	snap := &Snapshot{
		Chain:  &ChainStats{HeadStart: 100},
		Stages: make([]StageStats, 3),
		Timeline: []Row{
			{T: 0, Stage: 0, Head: u(101), RefHead: u(103)},
			{T: 1, Stage: 0, Head: u(102), RefHead: u(104)},
			{T: 2, Stage: 1, Head: u(104), RefHead: u(110)}, // falls behind under load
			{T: 3, Stage: 1},               // no head read yet (the row is skipped)
			{T: 4, Stage: 0, Head: u(107)}, // back to stage 0: +3, no reference
			{T: 5, Stage: 1, Head: u(108), RefHead: u(108)},
		},
	}
	got := StageHeads(snap)
	want := []StageHead{
		{Known: true, Last: 107, Advance: 2 + 3, MaxLag: 2, HasLag: true},
		{Known: true, Last: 108, Advance: 2 + 1, MaxLag: 6, HasLag: true},
		{}, // never ran
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("stage %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if StageHeads(&Snapshot{Stages: make([]StageStats, 1)}) != nil {
		t.Error("a run without a chain has stage heads")
	}
}

// TestMergeHeads: shards of one run read the same chain: merged, the reads and failures add
// up, the heads are the highest of the shards', a stale second stays stale, and a shard
// without a head (an older snapshot) takes nothing away.
func TestMergeHeads(t *testing.T) {
	u := func(v uint64) *uint64 { return &v }
	start := time.Unix(1_700_000_000, 0)
	a := &Snapshot{StartedAt: start, Chain: &ChainStats{Name: ChainEVM, HeadEveryS: 2, HeadStart: 10,
		Target: NodeHead{Head: 15, Reads: 5, Failures: 1, LastError: "HTTP 429"}, Ref: &NodeHead{URL: "http://ref/", Head: 20, Reads: 5}},
		Timeline: []Row{{T: 0, Head: u(11), RefHead: u(14)}, {T: 1, Head: u(12), HeadStale: true}}}
	b := &Snapshot{StartedAt: start, Chain: &ChainStats{Name: ChainEVM, HeadEveryS: 2, HeadStart: 9,
		Target: NodeHead{Head: 16, Reads: 6}},
		Timeline: []Row{{T: 0, Head: u(12), RefHead: u(13)}, {T: 1}}}
	old := &Snapshot{StartedAt: start, Timeline: []Row{{T: 0}, {T: 1}}}

	c := mergeChain([]*Snapshot{a, b, old})
	want := ChainStats{Name: ChainEVM, HeadEveryS: 2, HeadStart: 9, Target: NodeHead{Head: 16, Reads: 11, Failures: 1, LastError: "HTTP 429"}}
	if c == nil || c.Ref == nil || *c.Ref != (NodeHead{URL: "http://ref/", Head: 20, Reads: 5}) {
		t.Fatalf("merged chain %+v", c)
	}
	if c.Ref = nil; *c != want {
		t.Errorf("merged chain %+v, want %+v", *c, want)
	}
	rows := mergeRows([]*Snapshot{a, b, old}, start)
	if *rows[0].Head != 12 || *rows[0].RefHead != 14 || *rows[1].Head != 12 || rows[1].RefHead != nil || !rows[1].HeadStale {
		t.Errorf("merged rows %+v", rows)
	}
	if mergeChain([]*Snapshot{old}) != nil {
		t.Error("runs without a chain merge into one")
	}
}
