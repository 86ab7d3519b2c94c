package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDecodeSnapshotErrors: every way a file can fail to be a snapshot we read gets a clear word.
func TestDecodeSnapshotErrors(t *testing.T) {
	tests := []struct {
		data string
		want string
	}{
		{`{"schema":"rpcstress.snapshot/v1","totals":`, "truncated JSON"},                       // cut off mid-write
		{`not json at all`, "truncated JSON"},                                                   // some other file
		{`{"name":"x"}`, `no "schema" field`},                                                   // JSON, but not ours
		{`{"schema":"rpcstress.snapshot/v0"}`, "written by another version"},                    // older
		{`{"schema":"rpcstress.snapshot/v2"}`, "written by another version"},                    // newer
		{`{"schema":"k6.summary/v1"}`, "not an rpcstress snapshot"},                             // another tool
		{`{"schema":"rpcstress.snapshot/v1","totals":{"scheduled":"many"}}`, "snapshot fields"}, // wrong type inside
	}
	for _, tt := range tests {
		_, err := DecodeSnapshot([]byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tt.data, err, tt.want)
		}
	}
}

// TestSnapshotRoundTrip: what WriteSnapshot writes, ReadSnapshot reads back whole, and no
// temporary file is left beside it.
func TestSnapshotRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	in := &Snapshot{Schema: SnapshotSchema, Profile: []byte(`{"name":"x"}`), EndReason: "completed",
		StartedAt: time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC),
		Stages:    []StageStats{{Index: 0, Spec: Stage{Rate: 4, Duration: 30 * time.Second}}},
		Totals:    Summary{Scheduled: 3, Sent: 3, Completed: 3, Status: map[string]int64{"200": 3}}}
	if err := WriteSnapshot(path, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	if out.Stages[0].Spec != in.Stages[0].Spec || out.Totals.Status["200"] != 3 || !out.StartedAt.Equal(in.StartedAt) {
		t.Errorf("read back %+v", out)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("files beside the snapshot: %v", entries)
	}
	if _, err := ReadSnapshot(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestSendLagOmittedWhenUnmeasured: a summary without a measured send lag (per request, closed
// loop) leaves send_lag_ms out instead of claiming 0 ms; a measured one keeps it.
func TestSendLagOmittedWhenUnmeasured(t *testing.T) {
	b, err := json.Marshal(Summary{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "send_lag_ms") {
		t.Errorf("unmeasured send lag written: %s", b)
	}
	b, _ = json.Marshal(Summary{SendLag: Percentiles{P50: 0.4, Max: 1.2}})
	if !strings.Contains(string(b), `"send_lag_ms":{`) {
		t.Errorf("measured send lag missing: %s", b)
	}
}
