package report

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestDialTextRedials: the connections line says how many WebSocket connections were dialed
// again, and says nothing of re-dials where there were none (every HTTP run).
func TestDialTextRedials(t *testing.T) {
	tests := []struct {
		c    engine.Connections
		want string // in the line; "" checks that "re-dialed" is absent
	}{
		// WebSocket connections that closed and were dialed again.
		{engine.Connections{Dialed: 14, DialMean: 0.5, DialMax: 1, Redialed: 12}, "14 dialed, dial time mean 0.500 ms, max 1.00 ms (not in latency); 12 re-dialed"},
		// No re-dials: the line is as it always was.
		{engine.Connections{Dialed: 64, DialMean: 0.842, DialMax: 3.2}, ""},
	}
	for _, tt := range tests {
		got := dialText(tt.c)
		if tt.want == "" && strings.Contains(got, "re-dialed") || tt.want != "" && got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.c, got, tt.want)
		}
	}
}
