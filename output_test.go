package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/outfile"
)

// snapAt is a snapshot of a run t into it, with end reason reason.
func snapAt(t time.Duration, reason string) *engine.Snapshot {
	start := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	return &engine.Snapshot{Schema: engine.SnapshotSchema, Profile: []byte(`{}`), Mode: engine.ModeOpen, StartedAt: start, EndedAt: start.Add(t), EndReason: reason}
}

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

// TestRunOutputSavesOwnFiles: each `s` save gets a file of its own beside the final snapshot
// (run.json → run-save1.json …), skipping names an older run left, and the final snapshot keeps
// its name without touching them. Before, s wrote to the final snapshot's path.
func TestRunOutputSavesOwnFiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	writeFile(t, dir, "run-save2.json", "an older run's save")
	o, err := newRunOutput(out, filepath.Join(dir, "runs", "p-T.json"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, at := range []time.Duration{time.Second, 2 * time.Second} {
		p, err := o.save(t.Context(), snapAt(at, "running"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if want := []string{filepath.Join(dir, "run-save1.json"), filepath.Join(dir, "run-save3.json")}; !slices.Equal(paths, want) {
		t.Errorf("saved to %v, want %v", paths, want)
	}
	if err := o.final(t.Context(), snapAt(5*time.Second, "completed")); err != nil {
		t.Fatal(err)
	}
	for path, reason := range map[string]string{paths[0]: "running", paths[1]: "running", out: "completed"} {
		if s, err := readSnapshot(t, path); err != nil || s.EndReason != reason {
			t.Errorf("%s: %v, want a snapshot ending %q", path, err, reason)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "run-save2.json")); string(b) != "an older run's save" {
		t.Errorf("an older run's save was overwritten: %q", b)
	}
}

// TestRunOutputSaveBesideDevice: with --out on a device, saves go to rpcstress's own runs/
// name (its folder made), not next to /dev/null.
func TestRunOutputSaveBesideDevice(t *testing.T) {
	def := filepath.Join(t.TempDir(), "runs", "p-T.json")
	o, err := newRunOutput("/dev/null", def)
	if err != nil {
		t.Fatal(err)
	}
	if o.target.Stored() || !strings.Contains(o.note(), "no periodic snapshots") {
		t.Errorf("kind %s, note %q", o.target.Kind, o.note())
	}
	p, err := o.save(t.Context(), snapAt(time.Second, "running"))
	if want := filepath.Join(filepath.Dir(def), "p-T-save1.json"); err != nil || p != want {
		t.Errorf("saved to %s (%v), want %s", p, err, want)
	}
}

// TestRunOutputFinalFailsSaysWhere: when the final write fails (a full disk, injected), the
// error names the last periodic snapshot still on disk and its time, or says that the report is
// the only copy; the periodic snapshot is left whole.
func TestRunOutputFinalFailsSaysWhere(t *testing.T) {
	enospc := &os.PathError{Op: "write", Path: "run.json", Err: syscall.ENOSPC}
	tests := []struct {
		periodic []time.Duration // periodic snapshots written before the end
		want     string
	}{
		{[]time.Duration{10 * time.Second, 20 * time.Second}, "; the last periodic snapshot (t=20s) is still at "}, // the last one is named
		{nil, "; no periodic snapshot was saved, so the report is the only copy of the numbers"},                   // a run shorter than --save-every
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "run.json")
		o, err := newRunOutput(out, "unused.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range tt.periodic {
			if err := o.periodic(t.Context(), snapAt(at, "running")); err != nil {
				t.Fatal(err)
			}
		}
		o.write = func(context.Context, outfile.Target, *engine.Snapshot) error { return enospc }
		err = o.final(t.Context(), snapAt(25*time.Second, "completed"))
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want one saying %q", err, tt.want)
		}
		if len(tt.periodic) > 0 {
			if !strings.HasSuffix(err.Error(), out) {
				t.Errorf("error %v does not end with the path %s", err, out)
			}
			if s, err := readSnapshot(t, out); err != nil || s.EndReason != "running" {
				t.Errorf("the periodic snapshot: %v %v", s, err)
			}
		}
	}
}
