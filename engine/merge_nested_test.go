package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestMergeRefusesARunInsideAMerge: a merged snapshot given again beside one of the runs it
// holds would count that run twice; so would two merges that share a run. Both are refused;
// a merged snapshot beside a shard it does not hold is merged, and the merge of merges lists
// the runs themselves, so a third merge still finds them.
func TestMergeRefusesARunInsideAMerge(t *testing.T) {
	at := time.Date(2026, 11, 23, 10, 0, 0, 123456789, time.UTC)
	snap := func(host, shard string) *engine.Snapshot {
		return &engine.Snapshot{Schema: engine.SnapshotSchema, Host: host, Shard: shard, StartedAt: at, EndReason: "completed",
			Profile: []byte(`{"name":"t"}`), Histograms: engine.Histograms{Total: emptyHistogram(t)}}
	}
	merge := func(names []string, snaps ...*engine.Snapshot) *engine.Snapshot {
		t.Helper()
		m, err := engine.Merge(snaps, names, false)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	s1, s2, s3 := snap("a", "1/3"), snap("b", "2/3"), snap("c", "3/3")
	m12 := merge([]string{"s1.json", "s2.json"}, s1, s2)
	m123 := merge([]string{"m12.json", "s3.json"}, m12, s3)
	if len(m123.Merged) != 3 {
		t.Errorf("a merge of a merge and a shard lists %q, want its three runs", m123.Merged)
	}
	tests := []struct {
		name  string
		snaps []*engine.Snapshot
		same  bool
	}{
		// A merge and one of its own shards.
		{"merge and its shard", []*engine.Snapshot{m12, s2}, true},
		// The shard first, the merge second.
		{"shard and its merge", []*engine.Snapshot{s1, m12}, true},
		// Two merges that share s2 (s2+s3 merged on its own).
		{"merges sharing a run", []*engine.Snapshot{m12, merge([]string{"s2.json", "s3.json"}, s2, s3)}, true},
		// A merge of merges still knows s1.
		{"merge of merges and a shard", []*engine.Snapshot{m123, s1}, true},
		// A merge beside the shard it lacks: the plan's third part.
		{"merge and another shard", []*engine.Snapshot{m12, s3}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := engine.Merge(tt.snaps, []string{"x.json", "y.json"}, false)
			refused := err != nil && strings.Contains(err.Error(), "same run") && strings.Contains(err.Error(), "--force")
			if refused != tt.same {
				t.Errorf("merge: %v; want refused as the same run: %v", err, tt.same)
			}
		})
	}
}
