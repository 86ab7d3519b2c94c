package profiles

import (
	"strings"
	"testing"
	"time"
)

// TestSendTick: send_tick sets the schedule's grain, within 100µs to 100ms and only for a run
// with a schedule; --send-tick replaces it; the resolved profile a snapshot keeps says it when
// set, and nothing when left to the default.
func TestSendTick(t *testing.T) {
	const plan = "[[request]]\nmethod = \"m\"\n[[stage]]\nrate = \"10/s\"\nduration = \"1s\"\n"
	tests := []struct {
		name     string
		src      string
		flag     time.Duration // --send-tick
		want     time.Duration // Config.SendTick
		resolved string        // Resolved.SendTick
		err      string
	}{
		// Left out: the engine's default, nothing in the snapshot.
		{"default", "url = \"http://h\"\n" + plan, 0, 0, "", ""},
		// Set in the profile.
		{"10ms", "url = \"http://h\"\nsend_tick = \"10ms\"\n" + plan, 0, 10 * time.Millisecond, "10ms", ""},
		// The flag over the profile.
		{"flag over profile", "url = \"http://h\"\nsend_tick = \"10ms\"\n" + plan, 250 * time.Microsecond, 250 * time.Microsecond, "250µs", ""},
		// The edges are allowed.
		{"finest", "url = \"http://h\"\nsend_tick = \"100us\"\n" + plan, 0, 100 * time.Microsecond, "100µs", ""},
		// Finer than the timer can keep.
		{"too fine", "url = \"http://h\"\nsend_tick = \"99us\"\n" + plan, 0, 0, "", "t.toml:2: send_tick: 99µs is out of range: use 100µs to 100ms"},
		// Coarser than a rate.
		{"too coarse", "url = \"http://h\"\nsend_tick = \"1s\"\n" + plan, 0, 0, "", "t.toml:2: send_tick: 1s is out of range"},
		// A closed loop has no schedule.
		{"closed", "url = \"http://h\"\nmode = \"closed\"\nsend_tick = \"10ms\"\n" + plan, 0, 0, "", "t.toml:3: send_tick: 10ms: a closed loop has no schedule"},
		// Nor does the flag make one.
		{"closed flag", "url = \"http://h\"\nmode = \"closed\"\n" + plan, 10 * time.Millisecond, 0, "", "--send-tick 10ms: a closed loop has no schedule"},
		// The flag's range.
		{"flag too coarse", "url = \"http://h\"\n" + plan, time.Second, 0, "", "--send-tick 1s is out of range"},
		// Not a duration.
		{"not a duration", "url = \"http://h\"\nsend_tick = 5\n" + plan, 0, 0, "", "t.toml:2: send_tick"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := LoadBytes("t.toml", []byte(tt.src), "", mapEnv(nil))
			if err == nil && tt.flag != 0 {
				err = p.Apply(Overrides{SendTick: tt.flag})
			}
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if p.Config.SendTick != tt.want {
				t.Errorf("SendTick = %s, want %s", p.Config.SendTick, tt.want)
			}
			if got := p.Redacted().(*Resolved).SendTick; got != tt.resolved {
				t.Errorf("resolved send_tick %q, want %q", got, tt.resolved)
			}
		})
	}
}
