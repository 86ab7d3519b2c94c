package main

import (
	"path/filepath"
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
