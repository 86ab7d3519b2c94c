package proctest

import (
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/errtest"
)

// start starts sh -c script for the test.
func start(t *testing.T, script string) *Proc {
	t.Helper()
	p, err := Start(t, exec.Command("sh", "-c", script))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// exited reports whether p has exited within d.
func exited(p *Proc, d time.Duration) bool {
	select {
	case <-p.Exited():
		return true
	default: // time.After(0) may otherwise win the draw
	}
	select {
	case <-p.Exited():
		return true
	case <-time.After(d):
		return false
	}
}

// TestStop: a signal the process heeds ends it (Stop says so); one it ignores is followed by
// SIGKILL after the grace (Stop says that too), and either way the process is gone; stopping
// an ended process returns at once.
func TestStop(t *testing.T) {
	tests := []struct {
		name   string
		script string
		heeded bool
	}{
		// sleep's default for SIGTERM is to die.
		{"heeds", "exec sleep 60", true},
		// An ignored SIGTERM: only the SIGKILL after the grace ends it.
		{"ignores", `trap "" TERM; while :; do sleep 0.05; done`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, tt.script)
			time.Sleep(100 * time.Millisecond) // the trap is set
			began := time.Now()
			if got := p.Stop(syscall.SIGTERM, 300*time.Millisecond); got != tt.heeded {
				t.Errorf("Stop = %v, want %v", got, tt.heeded)
			}
			if !exited(p, 0) {
				t.Fatal("Stop returned with the process still running")
			}
			if took := time.Since(began); tt.heeded && took >= 300*time.Millisecond {
				t.Errorf("a heeded signal took %s: Stop waited out the grace", took)
			}
			again := time.Now()
			if !p.Stop(syscall.SIGTERM, time.Minute) || time.Since(again) > time.Second {
				t.Errorf("stopping an ended process: %s", time.Since(again))
			}
		})
	}
}

// TestCleanupKills: a process the test left running is gone once the test has ended.
func TestCleanupKills(t *testing.T) {
	var p *Proc
	t.Run("leaves it running", func(t *testing.T) { p = start(t, "sleep 60") })
	if !exited(p, 5*time.Second) {
		p.Kill()
		t.Fatal("the process outlived its test")
	}
}

// TestKillTakesTheGroup: Kill ends the helpers a process started as well (here a shell's
// sleep), so the output they hold closes and the end comes at once, not after waitDelay.
func TestKillTakesTheGroup(t *testing.T) {
	p := start(t, "sleep 60; :")
	time.Sleep(100 * time.Millisecond) // the sleep runs
	began := time.Now()
	p.Kill()
	if took := time.Since(began); took > waitDelay/2 {
		t.Errorf("Kill took %s: a helper of the process held its output", took)
	}
}

// TestAwait: Await returns once ready holds; it fails saying so when the process exits first
// (unless its last output was the sign) or the time runs out, with the output so far.
func TestAwait(t *testing.T) {
	tests := []struct {
		name, script string
		within       time.Duration
		err          string // "" for ready
	}{
		// The sign comes after a while.
		{"ready", "sleep 0.2; echo listening; sleep 60", 5 * time.Second, ""},
		// The sign is the last thing it wrote before it exited.
		{"ready at exit", "echo listening", 5 * time.Second, ""},
		// It dies without the sign: told at once, not after the whole wait.
		{"exits", "echo broken config; exit 3", time.Minute, "exited (exit status 3) before the word:\nbroken config"},
		// It never gives the sign.
		{"late", "echo starting; sleep 60", 300 * time.Millisecond, "no the word after 300ms:\nstarting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, tt.script)
			began := time.Now()
			err := p.Await(tt.within, "the word", func() bool { return strings.Contains(p.Out.String(), "listening") })
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("Await took %s", took)
			}
			if miss := errtest.Mismatch(err, tt.err); miss != "" {
				t.Errorf("Await: %s", miss)
			}
		})
	}
}

// TestStartFails: a program that cannot start is an error naming it, not a panic or a hang.
func TestStartFails(t *testing.T) {
	_, err := Start(t, exec.Command("/nonexistent/rpcstress-proctest"))
	if err == nil || !strings.Contains(err.Error(), "starting /nonexistent/rpcstress-proctest") {
		t.Errorf("Start: %v", err)
	}
}

// TestFreeAddr: the address is on 127.0.0.1, nothing answers there, and a process may listen
// on it.
func TestFreeAddr(t *testing.T) {
	addr := FreeAddr(t)
	if host, port, err := net.SplitHostPort(addr); err != nil || host != "127.0.0.1" || port == "0" {
		t.Fatalf("FreeAddr = %q (%v): want 127.0.0.1 and a port of its own", addr, err)
	}
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("something answers on %s", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	ln.Close()
}
