package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestDefaultSnapshotPath(t *testing.T) {
	utc := time.Date(2026, 11, 23, 10, 15, 0, 0, time.UTC)
	tests := []struct {
		name  string
		start time.Time
		want  string
	}{
		{"getBalance", utc, "runs/getBalance-20261123T101500Z.json"},                                 // a plain name
		{"getBalance", utc.In(time.FixedZone("CET", 3600)), "runs/getBalance-20261123T101500Z.json"}, // the time is written in UTC
		{"eth.v2_x-1", utc, "runs/eth.v2_x-1-20261123T101500Z.json"},                                 // dots, dashes, underscores kept
		{"my run", utc, "runs/my_run-20261123T101500Z.json"},                                         // a space is not safe everywhere
		{"../../etc/x", utc, "runs/.._.._etc_x-20261123T101500Z.json"},                               // a path in the name stays in runs/
		{`a\b:c*d?"<>|`, utc, "runs/a_b_c_d_____-20261123T101500Z.json"},                             // characters Windows refuses
		{"Überlast 負荷", utc, "runs/_berlast___-20261123T101500Z.json"},                               // letters beyond ASCII, one _ each
		{"", utc, "runs/run-20261123T101500Z.json"},                                                  // no name at all
		{"a\nb\x1b[2J", utc, "runs/a_b__2J-20261123T101500Z.json"},                                   // control characters
		{"getBalance", utc.Add(999 * time.Millisecond), "runs/getBalance-20261123T101500Z.json"},     // whole seconds
	}
	for _, tt := range tests {
		if got := defaultSnapshotPath(tt.name, tt.start); got != filepath.FromSlash(tt.want) {
			t.Errorf("defaultSnapshotPath(%q, %s) = %q, want %q", tt.name, tt.start, got, tt.want)
		}
	}
}

// TestWaitUntil: --start-at sleeps until its time; a signal meanwhile ends the program with
// 128+N before anything is sent, and a time past already starts at once, saying so.
func TestWaitUntil(t *testing.T) {
	tests := []struct {
		name   string
		in     time.Duration  // from now to --start-at
		sig    syscall.Signal // sent while it waits; 0: none
		cancel bool           // the context ends while it waits
		code   int
		ok     bool
		stdout string // what it says, in order: stdout then stderr
		stderr string
	}{
		// The time comes: the run starts.
		{"on time", 50 * time.Millisecond, 0, false, 0, true, "waiting 0s until ", ""},
		// A time gone by: start now, and say so (a shard that was late).
		{"past", -time.Minute, 0, false, 0, true, "", "rpcstress: --start-at "},
		// Ctrl-C while waiting: 130, nothing sent.
		{"SIGINT", time.Hour, syscall.SIGINT, false, 130, false, "waiting 1h0m0s until ", "rpcstress: SIGINT while waiting to start: nothing was sent\n"},
		// kill while waiting: 143.
		{"SIGTERM", time.Hour, syscall.SIGTERM, false, 143, false, "waiting 1h0m0s until ", "rpcstress: SIGTERM while waiting to start: nothing was sent\n"},
		// The program is told to end: the run does not start, silently.
		{"cancelled", time.Hour, 0, true, exitRunFailed, false, "waiting 1h0m0s until ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := make(chan os.Signal, 1)
			var stdout, stderr syncBuffer
			c := &cli{stdout: &stdout, stderr: &stderr, signals: sig}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.sig != 0 {
				sig <- tt.sig
			}
			if tt.cancel {
				cancel()
			}
			start := time.Now()
			code, ok := c.waitUntil(ctx, start.Add(tt.in))
			if code != tt.code || ok != tt.ok {
				t.Errorf("waitUntil = %d, %v; want %d, %v", code, ok, tt.code, tt.ok)
			}
			if !strings.HasPrefix(stdout.String(), tt.stdout) || !strings.HasPrefix(stderr.String(), tt.stderr) || tt.stderr == "" && stderr.String() != "" {
				t.Errorf("stdout %q, stderr %q; want them to begin %q and %q", stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
			if tt.in > time.Minute && time.Since(start) > 5*time.Second {
				t.Errorf("it waited %s: the wait was not cut short", time.Since(start))
			}
		})
	}
}
