package answers

import (
	"fmt"
	"slices"
	"testing"
)

// TestSumKeepsPerKind: summing shards keeps examples as one run would, Keep per request name
// and kind in the shards' order, so one kind's examples do not take another's places; a
// comparer's Result says its Keep for that (the default when Options.Keep is 0).
func TestSumKeepsPerKind(t *testing.T) {
	shard := func(tag string, keep int) *Result {
		c := newComparer(t, Options{Keep: keep}, "a", "b")
		for seq := range uint64(2) {
			sent := []byte(fmt.Sprintf("%s%d", tag, seq))
			c.Add(seq, "r", sent, body(0, okOne))
			c.Add(seq, "r", sent, body(1, okTwo)) // a mismatch
			c.Add(10+seq, "r", sent, body(0, okOne))
			c.Add(10+seq, "r", sent, body(1, badArgs)) // an error against a result
		}
		return c.Result()
	}
	if got := shard("x", 0).Keep; got != defaultKeep {
		t.Errorf("Result.Keep %d with Options.Keep 0, want %d", got, defaultKeep)
	}
	sum := Sum([]*Result{shard("h1", 3), shard("h2", 3)})
	var got []string
	for _, e := range sum.Examples {
		got = append(got, string(e.Kind)+" "+e.Sent)
	}
	want := []string{"error_vs_result h10", "error_vs_result h11", "mismatch h10", "mismatch h11",
		"error_vs_result h20", "mismatch h20"}
	if !slices.Equal(got, want) {
		t.Errorf("examples %q, want %q", got, want)
	}
	if sum.Totals != (Counts{Compared: 8, Mismatch: 4, ErrorVsResult: 4}) || sum.Keep != 3 {
		t.Errorf("totals %+v, keep %d", sum.Totals, sum.Keep)
	}
}
