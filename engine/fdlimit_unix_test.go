//go:build unix

package engine

import "testing"

// TestRaiseTo: the soft limit goes up to what the connections need, never past the hard
// limit and never down; the same for Linux's uint64 fields and the BSDs' int64 ones.
func TestRaiseTo(t *testing.T) {
	for _, tt := range []struct {
		cur, hard, need, want uint64
	}{
		{1024, 4096, 2000, 2000}, // raised to the need
		{1024, 1500, 2000, 1500}, // only as far as the hard limit
		{3000, 4096, 2000, 3000}, // never lowered
	} {
		if got := raiseTo(tt.cur, tt.hard, tt.need); got != tt.want {
			t.Errorf("uint64: raiseTo(%d, %d, %d) = %d, want %d", tt.cur, tt.hard, tt.need, got, tt.want)
		}
		if got := raiseTo(int64(tt.cur), int64(tt.hard), tt.need); got != int64(tt.want) {
			t.Errorf("int64: raiseTo(%d, %d, %d) = %d, want %d", tt.cur, tt.hard, tt.need, got, tt.want)
		}
	}
}
