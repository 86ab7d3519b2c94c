package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives the real binary in a real terminal: a tmux pane of a given size on a
// private tmux server, so the test never touches anybody else's sessions.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T, width, height int) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing in CI: .ci/run installs it")
		}
		t.Skip("tmux is not installed (apt-get install tmux)")
	}
	// One server per test: a server being killed by the previous test's cleanup must not be the
	// one this test starts on.
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	s := &tmuxSession{t: t, socket: fmt.Sprintf("rpcstress-%d-%s", os.Getpid(), name)}
	s.run("new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-s", "t", "env PS1='READY$ ' TERM=tmux-256color sh")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s *tmuxSession) keys(k ...string) { s.run(append([]string{"send-keys", "-t", "t"}, k...)...) }

func (s *tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", "t") }

// waitFor polls the screen until every want is on it.
func (s *tmuxSession) waitFor(timeout time.Duration, want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		scr := s.screen()
		missing := ""
		for _, w := range want {
			if !strings.Contains(scr, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed %q in %s; it shows:\n%s", missing, timeout, scr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestTmuxDashboard: `rpcstress --demo` in an 80x24 pane shows the rate, p99 and the 429 row;
// ↑ raises the target; one q drains, saves a snapshot holding the rate change, leaves the
// dashboard and prints the report on the normal screen, the pane back at the shell.
func TestTmuxDashboard(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	s := newTmux(t, 80, 24)
	s.waitFor(10*time.Second, "READY$")
	s.keys(fmt.Sprintf("cd %s && %s --demo --out %s; echo EXIT=$?", dir, bin, out), "Enter")
	mid := s.waitFor(20*time.Second, "target 250/s", "p99", "429", "sent ", "ok ")
	t.Logf("80x24 mid-run:\n%s", mid)
	s.keys("Up")
	s.waitFor(10*time.Second, "target 275/s")
	s.keys("q")
	end := s.waitFor(20*time.Second, "Invariant ✓", "snapshot: "+out, "EXIT=0", "READY$")
	if strings.Contains(end, "\x1b[?1049h") {
		t.Error("alternate screen left on")
	}
	snap, err := readSnapshot(t, out)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range snap.Events {
		if e.Kind == "rate" && strings.Contains(e.Detail, "275/s") {
			found = true
		}
	}
	if !found || snap.EndReason != "quit" {
		t.Errorf("snapshot end %q, events %+v: want quit and the rate change to 275/s", snap.EndReason, snap.Events)
	}
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Error(err)
	}
}

// TestTmuxDashboardSignals: SIGINT, SIGTERM and SIGHUP sent by PID to a dashboard run drain it,
// write the snapshot with the signal as end reason, exit 128+N and restore the terminal (the
// pane is back at the shell, off the alternate screen).
func TestTmuxDashboardSignals(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, sig := range []struct {
		name string
		code int
	}{{"INT", 130}, {"TERM", 143}, {"HUP", 129}} {
		t.Run(sig.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out, pidFile := filepath.Join(dir, "run.json"), filepath.Join(dir, "pid")
			s := newTmux(t, 80, 24)
			s.waitFor(10*time.Second, "READY$")
			s.keys(fmt.Sprintf("sh -c 'echo $$ > %s; exec %s --demo --out %s'; echo EXIT=$?", pidFile, bin, out), "Enter")
			s.waitFor(20*time.Second, "target 250/s", "p99")
			pid, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("kill", "-"+sig.name, strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
				t.Fatalf("kill: %v %s", err, out)
			}
			s.waitFor(20*time.Second, fmt.Sprintf("EXIT=%d", sig.code), "READY$")
			if alt := strings.TrimSpace(s.run("display-message", "-p", "-t", "t", "#{alternate_on}")); alt != "0" {
				t.Errorf("the pane is still on the alternate screen (alternate_on=%s)", alt)
			}
			snap, err := readSnapshot(t, out)
			if err != nil {
				t.Fatal(err)
			}
			if snap.EndReason != "signal:SIG"+sig.name || snap.Totals.Inflight != 0 {
				t.Errorf("end %q inflight %d", snap.EndReason, snap.Totals.Inflight)
			}
			if err := snap.Totals.CheckInvariant(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestTmuxDashboardSignalAfterEnd: a signal while the final summary waits for a key (the run is
// over and saved) closes the dashboard: the process exits 0 (the run completed) with the
// terminal restored, instead of waiting for a key nobody will press. SIGHUP is the SSH drop
// after a run; that one is checked by the process being gone, as the pane goes with it.
func TestTmuxDashboardSignalAfterEnd(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, sig := range []string{"TERM", "HUP"} {
		t.Run(sig, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out, pidFile := filepath.Join(dir, "run.json"), filepath.Join(dir, "pid")
			s := newTmux(t, 80, 24)
			s.waitFor(10*time.Second, "READY$")
			s.keys(fmt.Sprintf("sh -c 'echo $$ > %s; exec %s --demo --rate 50/s --duration 1s --out %s'; echo EXIT=$?", pidFile, bin, out), "Enter")
			s.waitFor(20*time.Second, "press any key")
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid := strings.TrimSpace(string(b))
			// Should the process hang, it must not outlive the test.
			t.Cleanup(func() { _ = exec.Command("kill", "-KILL", pid).Run() })
			if out, err := exec.Command("kill", "-"+sig, pid).CombinedOutput(); err != nil {
				t.Fatalf("kill: %v %s", err, out)
			}
			if sig == "TERM" {
				s.waitFor(10*time.Second, "EXIT=0", "READY$")
				if alt := strings.TrimSpace(s.run("display-message", "-p", "-t", "t", "#{alternate_on}")); alt != "0" {
					t.Errorf("the pane is still on the alternate screen (alternate_on=%s)", alt)
				}
			} else {
				deadline := time.Now().Add(10 * time.Second)
				for exec.Command("kill", "-0", pid).Run() == nil {
					if time.Now().After(deadline) {
						t.Fatalf("rpcstress (pid %s) still waits for a key 10 s after SIGHUP", pid)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			snap, err := readSnapshot(t, out)
			if err != nil {
				t.Fatal(err)
			}
			if snap.EndReason != "completed" {
				t.Errorf("end reason %q, want completed: the signal came after the run", snap.EndReason)
			}
		})
	}
}

// TestTmuxSaveOwnFile: s mid-run saves to a file of its own (shown on the screen and recorded
// as an event), which the end of the run leaves alone; the final snapshot keeps its name.
// Before, s wrote to the final snapshot's path, and the end of the run overwrote it.
func TestTmuxSaveOwnFile(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	s := newTmux(t, 80, 24)
	s.waitFor(10*time.Second, "READY$")
	s.keys(fmt.Sprintf("cd %s && %s --demo --rate 50/s --duration 4s --exit-on-end --out run.json; echo EXIT=$?", dir, bin), "Enter")
	s.waitFor(20*time.Second, "target 50/s")
	s.keys("s")
	s.waitFor(10*time.Second, "saved: run-save1.json")
	s.waitFor(20*time.Second, "EXIT=0", "READY$")
	saved, err := readSnapshot(t, filepath.Join(dir, "run-save1.json"))
	if err != nil {
		t.Fatal(err)
	}
	final, err := readSnapshot(t, filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if saved.EndReason != "running" || final.EndReason != "completed" {
		t.Errorf("the save ends %q, the final snapshot %q: want running and completed", saved.EndReason, final.EndReason)
	}
	found := false
	for _, e := range final.Events {
		found = found || e.Kind == "save" && e.Detail == "run-save1.json"
	}
	if !found {
		t.Errorf("no save event naming run-save1.json: %+v", final.Events)
	}
}
