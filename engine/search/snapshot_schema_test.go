package search

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/schema"
)

// TestSearchSnapshotsMatchSchema: the snapshot of a find-limit search, its search section
// (probes, answer, limiter estimate, burst probe) included, is valid against
// schema/snapshot.v1.json, whichever way the search ended.
func TestSearchSnapshotsMatchSchema(t *testing.T) {
	schemas := schema.MustCompile(t)
	tests := []struct {
		name  string
		cfg   Config
		model model
	}{
		// a token bucket: 429s, a limiter estimate and a burst probe
		{"bucket", cfgWith(250, 50000, 2*time.Second, 10*time.Second, 5*time.Minute, defaultSLO), &bucket{rate: 1000, burst: 60}},
		// a latency knee: breaches of the latency clause, no limiter
		{"knee", cfgWith(200, 50000, time.Second, 3*time.Second, 5*time.Minute, SLO{Percentile: 99, Latency: 20 * time.Millisecond, MaxLimitedPct: 1, MaxFailedPct: 0.1}),
			&knee{capacity: 1500, base: 2}},
		// nothing meets the SLO: no answer found
		{"never met", cfgWith(1000, 50000, time.Second, 2*time.Second, 5*time.Minute, defaultSLO), constant{failShare: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := runFake(t, tt.cfg, tt.model)
			if out.Burst != nil && out.Burst.Snapshot == nil {
				out.Burst.Snapshot = &engine.Snapshot{StartedAt: out.Started.Add(time.Minute)} // the real prober's burst has one
			}
			snap, err := out.Snapshot(engine.SnapshotMeta{Tool: engine.ToolInfo{Name: "rpcstress", Version: "test"}}, "http://127.0.0.1:1/", engine.EndCompleted)
			if err != nil {
				t.Fatal(err)
			}
			schemas.RequireValid(t, schema.Snapshot, snap, "the search snapshot")
		})
	}
}
