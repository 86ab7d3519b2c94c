package profiles

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/errtest"
)

// TestSendTickErrors: send_tick is 100µs to 100ms, and only where there is a schedule; each
// mistake is named at its line with the fix.
func TestSendTickErrors(t *testing.T) {
	checkProblems(t, []problemCase{
		// Finer than the timer can keep.
		{"too fine", h2Profile("http://h", `send_tick = "99us"`), nil, 2, "send_tick", "99µs is out of range: use 100µs to 100ms"},
		// Coarser than a rate.
		{"too coarse", h2Profile("http://h", `send_tick = "1s"`), nil, 2, "send_tick", "1s is out of range"},
		// A closed loop has no schedule.
		{"closed", h2Profile("http://h", "mode = \"closed\"\nsend_tick = \"10ms\""), nil, 3, "send_tick", "a closed loop has no schedule"},
		// Not a duration.
		{"a number", h2Profile("http://h", "send_tick = 5"), nil, 2, "send_tick", "a duration in quotes"},
	})
}

// TestSendTickSettings: send_tick reaches the Config and --send-tick replaces it; the snapshot's
// profile says it when set and nothing when left to the default; the flag is refused where the
// key would be.
func TestSendTickSettings(t *testing.T) {
	for _, tt := range []struct {
		extra    string
		flag     time.Duration // --send-tick
		want     time.Duration // Config.SendTick
		resolved string        // the snapshot's send_tick
	}{
		{"", 0, 0, ""}, // left out: the engine's default
		{`send_tick = "10ms"`, 0, 10 * time.Millisecond, "10ms"},                        // set in the profile
		{`send_tick = "100us"`, 0, 100 * time.Microsecond, "100µs"},                     // the finest allowed
		{`send_tick = "10ms"`, 250 * time.Microsecond, 250 * time.Microsecond, "250µs"}, // the flag over it
	} {
		p := mustLoad(t, h2Profile("http://h", tt.extra))
		if err := p.Apply(Overrides{SendTick: tt.flag}); err != nil {
			t.Fatal(err)
		}
		if p.Config.SendTick != tt.want {
			t.Errorf("%q --send-tick %s: SendTick = %s, want %s", tt.extra, tt.flag, p.Config.SendTick, tt.want)
		}
		if got := p.Redacted().(*Resolved).SendTick; got != tt.resolved {
			t.Errorf("%q --send-tick %s: stored %q, want %q", tt.extra, tt.flag, got, tt.resolved)
		}
	}
	closed := mustLoad(t, h2Profile("http://h", `mode = "closed"`))
	if m := errtest.Mismatch(applyRefused(t, closed, Overrides{SendTick: 10 * time.Millisecond}), "--send-tick 10ms: a closed loop has no schedule"); m != "" {
		t.Error(m)
	}
	open := mustLoad(t, h2Profile("http://h", ""))
	if m := errtest.Mismatch(applyRefused(t, open, Overrides{SendTick: time.Second}), "--send-tick 1s is out of range"); m != "" {
		t.Error(m)
	}
}
