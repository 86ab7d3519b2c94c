package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestE2EStopWhileTargetNeverAnswers: against a target that accepts and never reads, requests
// in flight hold the drain for the whole timeout. A SIGINT after the plan ended, or a second
// SIGINT while draining, leaves at once: exit 130, the snapshot ends "signal:SIGINT", what was
// in flight is counted in flight and the books balance. Before, the signals were ignored (the
// run waited the hour, the file on disk said "running"), and two SIGINTs took the full 60 s.
func TestE2EStopWhileTargetNeverAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		timeout string
		plan    string
		signals []time.Duration // when each SIGINT is sent, after the start
	}{
		// The 300 ms plan has run out; the run only waits an hour for answers: one SIGINT leaves.
		{"SIGINT after the plan ended", "1h", "300ms", []time.Duration{1500 * time.Millisecond}},
		// A SIGINT mid-plan drains (up to 62 s); the second one leaves.
		{"two SIGINTs", "60s", "1m", []time.Duration{700 * time.Millisecond, 1200 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := hostile.Start(t, hostile.Config{Mode: hostile.NeverRead})
			const conns = 4
			p := writeProfile(t, srv.URL, conns, getBalance+fmt.Sprintf("[[stage]]\nrate = \"20/s\"\nduration = %q\n", tt.plan))
			p = setTimeout(t, p, tt.timeout)
			sig := make(chan os.Signal, len(tt.signals))
			run := startCLI(t, sig, p)
			start := time.Now()
			for _, at := range tt.signals {
				time.Sleep(time.Until(start.Add(at)))
				sig <- syscall.SIGINT
			}
			last := time.Now()
			r := run.wait(t, 20*time.Second)
			took := time.Since(last)
			t.Logf("exit %d %s after the last SIGINT", r.code, took.Round(time.Millisecond))
			if took > 5*time.Second {
				t.Errorf("took %s after the last SIGINT to leave", took.Round(time.Millisecond))
			}
			mustRun(t, r, exitSignalsBase+int(syscall.SIGINT))
			tot := r.snap.Totals
			if r.snap.EndReason != "signal:SIGINT" || tot.Inflight != conns || tot.Completed != 0 {
				t.Errorf("end %q inflight %d completed %d: want signal:SIGINT with all %d connections' requests in flight",
					r.snap.EndReason, tot.Inflight, tot.Completed, conns)
			}
			found := false
			for _, e := range r.snap.Events {
				found = found || e.Kind == "drain" && strings.Contains(e.Detail, "left on a stop")
			}
			if !found {
				t.Errorf("no event says the drain was left: %+v", r.snap.Events)
			}
		})
	}
}

// TestE2ENotRegularFileRefused: a FIFO where a file is expected (a body_file, a --targets
// file, the profile itself) is refused at once with exit 2 and a message naming it, by
// validate and by a run. Before, they blocked on the FIFO forever, deaf to signals.
func TestE2ENotRegularFileRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	p := filepath.Join(dir, "p.toml")
	body := "url = \"http://127.0.0.1:1/\"\n[[request]]\nbody_file = \"pipe.json\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"validate body_file", []string{"validate", p}, "p.toml:3: request[1].body_file: \"pipe.json\" is a pipe (FIFO), not a regular file"},
		{"run body_file", []string{p}, "p.toml:3: request[1].body_file: \"pipe.json\" is a pipe (FIFO), not a regular file"},
		// As --targets /dev/stdin is on a pipe.
		{"run --targets", []string{"--targets", fifo, "--rate", "1/s", "--duration", "1s"}, "target file " + fifo + ": is a pipe (FIFO), not a regular file"},
		{"validate the profile", []string{"validate", fifo}, "profile " + fifo + ": is a pipe (FIFO), not a regular file"},
		{"find-limit the profile", []string{"find-limit", fifo}, "profile " + fifo + ": is a pipe (FIFO), not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := startCLI(t, make(chan os.Signal), tt.args...).wait(t, 10*time.Second)
			fix := "save the content to a regular file"
			if strings.HasPrefix(tt.name, "run --targets") {
				fix = "to stream targets, pipe them into --targets -" // the way to read a pipe
			}
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, fix) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q and how to fix it", r.code, r.stderr, tt.want)
			}
		})
	}
}
