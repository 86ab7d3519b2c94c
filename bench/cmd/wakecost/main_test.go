//go:build linux

package main

import (
	"strings"
	"testing"
	"time"
)

// TestMeasure: both ways sleep and wake the number of times asked, at about the interval
// asked (wide bounds: a shared machine), and cost some CPU; bad input is refused, and a core
// the machine lacks is named with the flag to choose another.
func TestMeasure(t *testing.T) {
	for _, way := range []string{"timer", "cross"} {
		start := time.Now()
		r, err := measure(way, 50, 2*time.Millisecond, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.wall < 2*time.Millisecond || time.Since(start) < 100*time.Millisecond {
			t.Errorf("%s: %v apart, %v in all; want at least 2 ms apart, 50 sleeps", way, r.wall, time.Since(start))
		}
		if r.cpu <= 0 || r.cpu > r.wall {
			t.Errorf("%s: %v of CPU per wake, %v apart: want above 0 and below the interval", way, r.cpu, r.wall)
		}
		if !strings.HasPrefix(r.String(), way+" ") {
			t.Errorf("%q does not name its way", r)
		}
	}
	if _, err := measure("timer", 0, time.Millisecond, 0, 0); err == nil {
		t.Error("n = 0 was not refused")
	}
	if _, err := measure("timer", 1, time.Millisecond, 4095, 0); err == nil || !strings.Contains(err.Error(), "-core") {
		t.Errorf("a core the machine lacks: %v, want an error that says to choose with -core", err)
	}
}
