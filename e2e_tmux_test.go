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
	"github.com/rpcstress/rpcstress/internal/proctest"
)

// tmuxSession drives the real binary in a real terminal: a tmux pane of a given size on a
// private tmux server, so the test never touches anybody else's sessions.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T, width, height int) *tmuxSession {
	t.Helper()
	requireProgram(t, "the dashboard is not tested in a terminal (apt-get install tmux)", "tmux")
	// One server per test: a server being killed by the previous test's cleanup must not be the
	// one this test starts on.
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	s := &tmuxSession{t: t, socket: fmt.Sprintf("rpcstress-%d-%s", os.Getpid(), name)}
	// Registered before the server starts, so that no failure from here on leaves it running.
	t.Cleanup(func() { killTmuxServer(s.socket) })
	if err := startTmuxServer(s.socket, os.Getpid(), width, height); err != nil {
		t.Fatal(err)
	}
	s.waitFor(10*time.Second, "READY$")
	return s
}

// startTmuxServer starts a private tmux server on socket with one session "t" running a shell
// of prompt "READY$ ", and in it a watchdog that kills the server once process owner is gone:
// a test binary that dies without running its cleanups (a -timeout panic, a kill) must not
// leave a server behind with a dashboard running in it.
func startTmuxServer(socket string, owner, width, height int) error {
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("tmux -L %s %v: %w\n%s", socket, args, err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	if _, err := tmux("new-session", "-d", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-s", "t", "env PS1='READY$ ' TERM=tmux-256color sh"); err != nil {
		return err
	}
	path, err := tmux("display-message", "-p", "#{socket_path}")
	if err != nil {
		return err
	}
	// The watchdog also ends when the server does (has-session fails), so it does not outlive
	// a test that cleaned up; it removes the socket file, which kill-server leaves behind.
	watch := fmt.Sprintf("while kill -0 %d 2>/dev/null && tmux -L %s has-session 2>/dev/null; do sleep 0.5; done; tmux -L %s kill-server 2>/dev/null; rm -f '%s'",
		owner, socket, socket, path)
	_, err = tmux("run-shell", "-b", watch)
	return err
}

// killTmuxServer kills the tmux server on socket and removes its socket file, which
// kill-server leaves behind (one more file in /tmp/tmux-UID per test run otherwise).
func killTmuxServer(socket string) {
	path, err := exec.Command("tmux", "-L", socket, "display-message", "-p", "#{socket_path}").Output()
	_ = exec.Command("tmux", "-L", socket, "kill-server").Run()
	if p := strings.TrimSpace(string(path)); err == nil && p != "" {
		_ = os.Remove(p)
	}
}

// start runs the binary with args (shell words) in the pane, in dir, and returns its PID, for
// signals; the pane shows EXIT=N when it ends. Should it hang, it does not outlive the test.
func (s *tmuxSession) start(dir, bin, args string) (pid string) {
	s.t.Helper()
	pidFile := filepath.Join(s.t.TempDir(), "pid")
	s.keys(fmt.Sprintf("cd %s && sh -c 'echo $$ > %s; exec %s %s'; echo EXIT=$?", dir, pidFile, bin, args), "Enter")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(pidFile)
		if pid = strings.TrimSpace(string(b)); err == nil && pid != "" {
			break
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no PID in %s after 10 s: %v", pidFile, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Cleanup(func() { _ = exec.Command("kill", "-KILL", pid).Run() })
	return pid
}

// signal sends a signal ("-INT") to the process pid.
func (s *tmuxSession) signal(pid, sig string) {
	s.t.Helper()
	if out, err := exec.Command("kill", sig, pid).CombinedOutput(); err != nil {
		s.t.Fatalf("kill %s: %v %s", sig, err, out)
	}
}

// checkRestored fails unless the pane is off the alternate screen: the terminal was restored.
func (s *tmuxSession) checkRestored() {
	s.t.Helper()
	if alt := strings.TrimSpace(s.run("display-message", "-p", "-t", "t", "#{alternate_on}")); alt != "0" {
		s.t.Errorf("the pane is still on the alternate screen (alternate_on=%s)", alt)
	}
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
	s.start(dir, bin, "--demo --out "+out)
	mid := s.waitFor(20*time.Second, "target 250/s", "p99", "429", "sent ", "ok ")
	t.Logf("80x24 mid-run:\n%s", mid)
	s.keys("Up")
	s.waitFor(10*time.Second, "target 275/s")
	s.keys("q")
	end := s.waitFor(20*time.Second, "Invariant ✓", "snapshot: "+out, "EXIT=0", "READY$")
	if strings.Contains(end, "\x1b[?1049h") {
		t.Error("alternate screen left on")
	}
	snap := loadRun(t, out)
	found := false
	for _, e := range snap.Events {
		if e.Kind == "rate" && strings.Contains(e.Detail, "275/s") {
			found = true
		}
	}
	if !found || snap.EndReason != "quit" {
		t.Errorf("snapshot end %q, events %+v: want quit and the rate change to 275/s", snap.EndReason, snap.Events)
	}
}

// TestTmuxDashboardSignals: SIGINT, SIGTERM and SIGHUP sent by PID to a dashboard run drain it,
// write the snapshot with the signal as end reason, exit 128+N and restore the terminal (the
// pane is back at the shell, off the alternate screen). A search's dashboard does the same.
func TestTmuxDashboardSignals(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, tt := range []struct {
		name, sig string
		code      int
		args      string // after the binary; --out follows
		running   []string
	}{
		{"INT", "INT", 130, "--demo", []string{"target 250/s", "p99"}},
		{"TERM", "TERM", 143, "--demo", []string{"target 250/s", "p99"}},
		{"HUP", "HUP", 129, "--demo", []string{"target 250/s", "p99"}},
		// The search stops in its probe and saves what it found so far.
		{"find-limit INT", "INT", 130, "find-limit --demo", []string{"probe 1 at 100/s", "p99"}},
		{"find-limit HUP", "HUP", 129, "find-limit --demo", []string{"probe 1 at 100/s", "p99"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out := filepath.Join(dir, "run.json")
			s := newTmux(t, 80, 24)
			pid := s.start(dir, bin, tt.args+" --out "+out)
			s.waitFor(20*time.Second, tt.running...)
			s.signal(pid, "-"+tt.sig)
			s.waitFor(20*time.Second, fmt.Sprintf("EXIT=%d", tt.code), "READY$")
			s.checkRestored()
			snap := loadRun(t, out)
			if snap.EndReason != "signal:SIG"+tt.sig || snap.Totals.Inflight != 0 {
				t.Errorf("end %q inflight %d", snap.EndReason, snap.Totals.Inflight)
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
			out := filepath.Join(dir, "run.json")
			s := newTmux(t, 80, 24)
			pid := s.start(dir, bin, "--demo --rate 50/s --duration 1s --out "+out)
			s.waitFor(20*time.Second, "press any key")
			s.signal(pid, "-"+sig)
			if sig == "TERM" {
				s.waitFor(10*time.Second, "EXIT=0", "READY$")
				s.checkRestored()
			} else {
				deadline := time.Now().Add(10 * time.Second)
				for exec.Command("kill", "-0", pid).Run() == nil {
					if time.Now().After(deadline) {
						t.Fatalf("rpcstress (pid %s) still waits for a key 10 s after SIGHUP", pid)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			snap := loadRun(t, out)
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
	s.start(dir, bin, "--demo --rate 50/s --duration 4s --exit-on-end --out run.json")
	s.waitFor(20*time.Second, "target 50/s")
	s.keys("s")
	s.waitFor(10*time.Second, "saved: run-save1.json")
	s.waitFor(20*time.Second, "EXIT=0", "READY$")
	saved := loadRun(t, filepath.Join(dir, "run-save1.json"))
	final := loadRun(t, filepath.Join(dir, "run.json"))
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
			p := writeProfile(t, srv.URL, conns, getBalance+stage("20/s", tt.plan))
			p = setTimeout(t, p, tt.timeout)
			dir := t.TempDir()
			out := filepath.Join(dir, "run.json")
			s := newTmux(t, 80, 24)
			pid := s.start(dir, bin, p+" --out "+out)
			s.waitFor(20*time.Second, "target 20/s")
			act := func(a string) {
				if strings.HasPrefix(a, "-") {
					s.signal(pid, a)
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
			snap := loadRun(t, out)
			if snap.EndReason != tt.reason || snap.Totals.Inflight != conns {
				t.Errorf("end %q inflight %d, want %q and %d", snap.EndReason, snap.Totals.Inflight, tt.reason, conns)
			}
		})
	}
}

// TestTmuxServerNeverOutlives: a tmux test's server goes with the test, failing or not. The
// cleanup kills it and removes its socket file; and should the test binary die without its
// cleanups (here its stand-in, a sleep, is killed), the server's watchdog kills it.
func TestTmuxServerNeverOutlives(t *testing.T) {
	t.Parallel()
	requireProgram(t, "the dashboard is not tested in a terminal (apt-get install tmux)", "tmux")
	alive := func(socket string) bool {
		return exec.Command("tmux", "-L", socket, "has-session").Run() == nil
	}
	var socket string
	var path []byte
	t.Run("cleanup", func(t *testing.T) {
		s := newTmux(t, 80, 24)
		socket = s.socket
		path = []byte(s.run("display-message", "-p", "#{socket_path}"))
	})
	if alive(socket) {
		t.Errorf("tmux server %s still running after its test", socket)
	}
	gone := func(path []byte) bool {
		_, err := os.Stat(strings.TrimSpace(string(path)))
		return os.IsNotExist(err)
	}
	if !gone(path) {
		t.Errorf("socket file %s left behind after its test", path)
	}

	owner, err := proctest.Start(t, exec.Command("sleep", "60")) // the test binary's stand-in
	if err != nil {
		t.Fatal(err)
	}
	orphan := fmt.Sprintf("rpcstress-%d-%s-orphan", os.Getpid(), t.Name())
	t.Cleanup(func() { killTmuxServer(orphan) })
	if err := startTmuxServer(orphan, owner.Cmd.Process.Pid, 80, 24); err != nil {
		t.Fatal(err)
	}
	if !alive(orphan) {
		t.Fatalf("tmux server %s did not start", orphan)
	}
	path, _ = exec.Command("tmux", "-L", orphan, "display-message", "-p", "#{socket_path}").Output()
	owner.Kill()
	// The watchdog looks every 0.5 s; 30 s is a wide bound for a machine busy with the other
	// parallel tests (10 s was missed once under a load test beside the suite).
	deadline := time.Now().Add(30 * time.Second)
	for alive(orphan) || !gone(path) {
		if time.Now().After(deadline) {
			t.Fatalf("tmux server %s (or its socket file) still there 30 s after its test binary died", orphan)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
