package engine

import (
	"runtime"
	"testing"
	"time"
)

// TestWaker checks both wakers: Reset fires once after about d, a later Reset replaces an
// earlier one, a non-positive d fires at once, and Stop releases everything (no goroutine
// left behind). Bounds are wide: only order and "not absurdly late" are asserted.
func TestWaker(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func() waker
	}{
		{"platform", newWaker},
		{"go timer", func() waker { return newGoTimer() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			w := tt.make()

			start := time.Now()
			w.Reset(20 * time.Millisecond)
			waitFire(t, w, 5*time.Second)
			if el := time.Since(start); el < 15*time.Millisecond {
				t.Errorf("fired after %v, want about 20ms", el)
			}

			// A later Reset replaces the earlier setting: the 1 h timer must not be what fires.
			w.Reset(time.Hour)
			w.Reset(time.Millisecond)
			waitFire(t, w, 5*time.Second)

			w.Reset(0)
			waitFire(t, w, 5*time.Second)
			w.Reset(-time.Second)
			waitFire(t, w, 5*time.Second)

			// Disarmed by a long Reset: nothing arrives soon.
			w.Reset(time.Hour)
			select {
			case <-w.C():
				t.Error("fired although set to an hour")
			case <-time.After(50 * time.Millisecond):
			}

			w.Stop()
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Errorf("%d goroutines after Stop, %d before", n, before)
			}
		})
	}
}

func waitFire(t *testing.T, w waker, limit time.Duration) {
	t.Helper()
	select {
	case <-w.C():
	case <-time.After(limit):
		t.Fatalf("did not fire within %v", limit)
	}
}
