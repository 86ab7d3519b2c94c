package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestTmuxDashboardLeavesDrain: the dashboard in a real terminal against a target that never
// reads, so answers never come and the drain would wait the whole timeout. While it drains the
// footer says how many answers it waits for and what a key does; a second q, a second ctrl+c,
// a second SIGINT, or a first SIGINT once the plan has run out, leaves within seconds, with
// the snapshot saved (in flight counted in flight) and the exit status of how it was stopped:
// q 0, ctrl+c and SIGINT 130. Before, the dashboard left 58 s after the second ctrl+c, and a
// SIGINT after the plan ended did nothing for as long as the timeout.
func TestTmuxDashboardLeavesDrain(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	const conns = 4
	tests := []struct {
		name    string
		timeout string
		plan    string
		first   string // "" when the plan runs out by itself
		drain   string // the footer while draining, before the last action
		last    string // a key for tmux, or a signal for kill
		code    int
		reason  string
	}{
		// q stops and drains; the second q leaves: exit 0, end reason quit.
		{"q twice", "60s", "1m", "q", "q/ctrl+c again: leave now", "q", 0, "quit"},
		// ctrl+c is SIGINT: exit 130 and its end reason.
		{"ctrl+c twice", "60s", "1m", "C-c", "q/ctrl+c again: leave now", "C-c", 130, "signal:SIGINT"},
		// The case: two SIGINTs by PID.
		{"SIGINT twice", "60s", "1m", "-INT", "q/ctrl+c: leave now", "-INT", 130, "signal:SIGINT"},
		// The plan ran out; the run only waits an hour for answers: one SIGINT leaves.
		{"SIGINT after the plan ended", "1h", "300ms", "", "q/ctrl+c: leave now", "-INT", 130, "signal:SIGINT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
			p := writeProfile(t, srv.URL, conns, getBalance+fmt.Sprintf("[[stage]]\nrate = \"20/s\"\nduration = %q\n", tt.plan))
			p = setTimeout(t, p, tt.timeout)
			dir := t.TempDir()
			out, pidFile := filepath.Join(dir, "run.json"), filepath.Join(dir, "pid")
			s := newTmux(t, 80, 24)
			s.waitFor(10*time.Second, "READY$")
			s.keys(fmt.Sprintf("sh -c 'echo $$ > %s; exec %s %s --out %s'; echo EXIT=$?", pidFile, bin, p, out), "Enter")
			s.waitFor(20*time.Second, "target 20/s")
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid := strings.TrimSpace(string(b))
			t.Cleanup(func() { _ = exec.Command("kill", "-KILL", pid).Run() }) // should it hang
			act := func(a string) {
				if strings.HasPrefix(a, "-") {
					if out, err := exec.Command("kill", a, pid).CombinedOutput(); err != nil {
						t.Fatalf("kill %s: %v %s", a, err, out)
					}
					return
				}
				s.keys(a)
			}
			if tt.first != "" {
				time.Sleep(500 * time.Millisecond) // some requests in flight, some in the backlog
				act(tt.first)
			}
			scr := s.waitFor(10*time.Second, fmt.Sprintf("draining %d in flight (up to", conns), tt.drain)
			t.Logf("80x24 while draining:\n%s", scr)
			act(tt.last)
			left := time.Now()
			s.waitFor(10*time.Second, fmt.Sprintf("EXIT=%d", tt.code), "READY$")
			took := time.Since(left)
			t.Logf("left %s after the last %s", took.Round(100*time.Millisecond), tt.last)
			if took > 5*time.Second {
				t.Errorf("took %s to leave", took.Round(100*time.Millisecond))
			}
			snap, err := readSnapshot(t, out)
			if err != nil {
				t.Fatal(err)
			}
			if snap.EndReason != tt.reason || snap.Totals.Inflight != conns {
				t.Errorf("end %q inflight %d, want %q and %d", snap.EndReason, snap.Totals.Inflight, tt.reason, conns)
			}
			if err := snap.Totals.CheckInvariant(); err != nil {
				t.Error(err)
			}
		})
	}
}
