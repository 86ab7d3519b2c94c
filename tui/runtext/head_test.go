package runtext

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestHeadPhrases: the head, its progress and the lag read the same everywhere.
func TestHeadPhrases(t *testing.T) {
	tests := []struct{ got, want string }{
		// Grouped by thousands.
		{HeadPhrase(20_123_456, 5, 10*time.Second), "head 20,123,456 (+5 in 10s)"},
		// No span yet: the head alone.
		{HeadPhrase(7, 0, 0), "head 7"},
		// Standing still, and going back (a node restarted on an older state).
		{HeadPhrase(300_000_000, 0, 4*time.Second), "head 300,000,000 (+0 in 4s)"},
		{HeadPhrase(100, -3, 2*time.Second), "head 100 (-3 in 2s)"},
		// Lag in the chain's unit; ahead when negative.
		{LagPhrase(engine.ChainEVM, 3), "lag 3 blocks"},
		{LagPhrase(engine.ChainSolana, 0), "lag 0 slots"},
		{LagPhrase(engine.ChainEVM, -2), "ahead 2 blocks"},
		// One of them.
		{LagPhrase(engine.ChainSolana, 1), "lag 1 slot"},
		{LagPhrase(engine.ChainEVM, -1), "ahead 1 block"},
		// A stale head: its age and why.
		{StalePhrase(engine.HeadReading{Age: 12400 * time.Millisecond, LastErr: "HTTP 429 Too Many Requests"}), "stale 12s: HTTP 429 Too Many Requests"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
