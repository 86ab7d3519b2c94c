package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestE2ESignals: SIGINT, SIGTERM and SIGHUP drain, write the snapshot with the signal as end
// reason, and exit with 128 + the signal number.
func TestE2ESignals(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{Latency: 5 * time.Millisecond})
	p := writeProfile(t, url, 16, getBalance+stage("200/s", "60s"))
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(signalName(s), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			r := runCLI(t, signalAfter(s, 700*time.Millisecond), p)
			mustRun(t, r, exitSignalsBase+int(s))
			if r.snap.EndReason != "signal:"+signalName(s) || r.snap.Totals.Completed < 50 || r.snap.Totals.Inflight != 0 {
				t.Errorf("end %q completed %d inflight %d", r.snap.EndReason, r.snap.Totals.Completed, r.snap.Totals.Inflight)
			}
			if time.Since(start) > 20*time.Second {
				t.Errorf("took %s to stop", time.Since(start))
			}
		})
	}
}

// TestFindLimitSignal: a signal stops a headless search within its probe, not after it; the
// search so far is saved with the signal as the end reason, and rpcstress exits 128+N.
func TestFindLimitSignal(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{Latency: 5 * time.Millisecond})
	p := writeProfile(t, url, 16, getBalance+"[search]\nprobe = \"20s\"\nsettle = \"0s\"\nstart = \"50/s\"\n")
	start := time.Now()
	r := runCLI(t, signalAfter(syscall.SIGTERM, 1500*time.Millisecond), "find-limit", p)
	if r.code != exitSignalsBase+int(syscall.SIGTERM) || r.snap == nil || r.snap.Search == nil {
		t.Fatalf("exit %d, snapshot %v; want 143 and the search saved\nstderr: %s\nstdout: %s", r.code, r.snap != nil, r.stderr, r.stdout)
	}
	if r.snap.EndReason != "signal:SIGTERM" || r.snap.Search.EndReason != "stopped" {
		t.Errorf("end reason %q, search %q; want signal:SIGTERM and stopped", r.snap.EndReason, r.snap.Search.EndReason)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s to stop a 20 s probe", took)
	}
}

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
			p := writeProfile(t, srv.URL, conns, getBalance+stage("20/s", tt.plan))
			p = setTimeout(t, p, tt.timeout)
			run := startCLI(t, signalAfter(syscall.SIGINT, tt.signals...), p)
			last := time.Now().Add(tt.signals[len(tt.signals)-1])
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
