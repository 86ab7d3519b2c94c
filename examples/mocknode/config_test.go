package mocknode

import (
	"strings"
	"testing"
	"time"
)

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string // in the error; "" = valid
	}{
		// The zero value is a plain node.
		{"zero", Config{}, ""},
		// A full, sensible configuration.
		{"everything", Config{Rate: 100, Burst: 10, NoDelay: true, LimitStatus: 503, Latency: time.Millisecond, Jitter: time.Millisecond, PerItem: time.Microsecond, Capacity: 1000, StallEvery: time.Second, StallFor: 100 * time.Millisecond, Retain: 128}, ""},
		// Negative rate.
		{"negative rate", Config{Rate: -1}, "rate -1/s is negative"},
		// Below nginx's 0.001 r/s resolution.
		{"tiny rate", Config{Rate: 0.0001}, "below nginx's resolution"},
		// Status outside 400–599.
		{"status 302", Config{Rate: 1, LimitStatus: 302}, "not an HTTP error status"},
		// Negative jitter.
		{"negative jitter", Config{Jitter: -time.Second}, "jitter -1s is negative"},
		// Latency beyond an hour is a typo.
		{"huge latency", Config{Latency: 2 * time.Hour}, "above the maximum"},
		// Tiny capacity would overflow the service time.
		{"tiny capacity", Config{Capacity: 1e-9}, "below the minimum"},
		// A negative retention window.
		{"negative retain", Config{Retain: -1}, "retain -1 is negative: use 0 for an archive node"},
		// A block period below 10 ms floods newHeads subscribers.
		{"tiny block time", Config{BlockTime: time.Millisecond}, "block-time 1ms is outside 10ms to 1h0m0s"},
		// Refusing upgrades needs an HTTP error status.
		{"refuse 200", Config{WSRefuse: 200}, "ws-refuse 200 is not an HTTP error status"},
		// A negative drop period.
		{"negative drop", Config{WSDropEvery: -1}, "ws-drop-every -1 is negative"},
		// Negative subscription knobs.
		{"negative sub limit", Config{SubLimit: -2}, "sub-limit -2 is negative: use 0 to take every subscription"},
		{"negative sub drop", Config{SubDropAfter: -1}, "sub-drop-after -1 is negative"},
		{"negative sub skip", Config{SubSkipEvery: -3}, "sub-skip-every -3 is negative"},
		// Leaving every block out is no subscription at all.
		{"skip every one", Config{SubSkipEvery: 1}, "sub-skip-every 1 leaves every notification out"},
		// Notifications can only queue behind calls where there is a queue.
		{"notify-queued alone", Config{NotifyQueued: true}, "notify-queued needs a capacity"},
		// The subscription knobs together, with the capacity they need.
		{"subscription knobs", Config{Capacity: 100, NotifyQueued: true, SubLimit: 3, SubDropAfter: 5, SubSkipEvery: 2, WallClock: true}, ""},
		// All problems are reported at once.
		{"several", Config{Burst: -1, Latency: -1}, "burst -1 is negative: use 0 for no burst\nlatency -1ns is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestConfigString(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		// Defaults.
		{Config{}, "no limit; latency 0s; capacity unlimited"},
		// Every knob.
		{Config{Rate: 4, Burst: 3, Latency: time.Millisecond, Jitter: time.Millisecond, PerItem: time.Microsecond, Capacity: 500, StallEvery: time.Second, StallFor: 100 * time.Millisecond, Retain: 128},
			"limit 4/s burst 3 delaying, rejects with 429; latency 1ms + jitter 1ms + 1µs/item; capacity 500/s; stalls 100ms every 1s; keeps the last 128 blocks"},
		// The WebSocket knobs and the block period.
		{Config{BlockTime: time.Second, WSRefuse: 403, WSDropEvery: 7},
			"no limit; latency 0s; capacity unlimited; a block every 1s; refuses WebSocket with 403; drops a WebSocket every 7 messages"},
		// The subscription knobs.
		{Config{Capacity: 100, SubLimit: 3, SubDropAfter: 5, SubSkipEvery: 4, NotifyQueued: true, WallClock: true},
			"no limit; latency 0s; capacity 100/s; at most 3 subscriptions; drops a subscriber after 5 notifications; leaves out the notifications of blocks numbered a multiple of 4; notifications queue behind calls; blocks stamped with the wall clock"},
	}
	for _, tt := range tests {
		if got := tt.cfg.String(); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
