package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/schema"
)

var (
	schemasOnce sync.Once
	schemas     *schema.Schemas
	schemasErr  error
)

// checkSchema holds a snapshot, encoded as WriteSnapshot encodes it, against
// schema/snapshot.v1.json.
func checkSchema(t *testing.T, s *engine.Snapshot) {
	t.Helper()
	schemasOnce.Do(func() { schemas, schemasErr = schema.Compile() })
	if schemasErr != nil {
		t.Fatal(schemasErr)
	}
	schemas.RequireValid(t, schema.Snapshot, s, "the snapshot")
}

// TestEngineSnapshotsMatchSchema: every kind of snapshot the engine builds is valid against
// the published schema: a run across a limiter (429s), one taken mid-run, a closed-loop run,
// a run against nothing (transport errors only), and a merge of two shards.
func TestEngineSnapshotsMatchSchema(t *testing.T) {
	_, url := startNode(t, mocknode.Config{Rate: 150, Burst: 5, NoDelay: true})
	stages := []engine.Stage{{Rate: 100, Duration: 500 * time.Millisecond}, {Name: "over", Rate: 300, Duration: 500 * time.Millisecond}}

	t.Run("limited", func(t *testing.T) {
		cfg := balanceConfig(url, stages...)
		cfg.Requests = append(cfg.Requests, engine.Request{Name: "getSlot", Weight: 1, Items: 1,
			Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)})
		snap := run(t, cfg) // run checks the schema too
		if snap.Totals.Limited == 0 || len(snap.Histograms.ByRequest) != 2 {
			t.Errorf("want 429s and two requests: %+v", snap.Totals)
		}
	})
	t.Run("mid-run", func(t *testing.T) {
		r, err := engine.NewRunner(balanceConfig(url, engine.Stage{Rate: 100, Duration: time.Minute}), engine.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := r.Run(context.Background(), engine.SnapshotMeta{}); done <- err }()
		time.Sleep(1200 * time.Millisecond)
		mid, err := r.SnapshotNow(engine.SnapshotMeta{})
		r.Controller().Stop("quit")
		if err != nil {
			t.Fatal(err)
		}
		if runErr := <-done; runErr != nil {
			t.Fatal(runErr)
		}
		if mid.EndReason != engine.EndRunning {
			t.Errorf("end reason %q", mid.EndReason)
		}
		checkSchema(t, mid)
	})
	t.Run("closed loop", func(t *testing.T) {
		cfg := balanceConfig(url, engine.Stage{})
		cfg.Mode, cfg.MaxRequests, cfg.Connections = engine.ModeClosed, 50, 4
		run(t, cfg)
	})
	t.Run("nothing listens", func(t *testing.T) {
		snap := run(t, balanceConfig("http://127.0.0.1:1/", engine.Stage{Rate: 50, Duration: 300 * time.Millisecond}))
		if snap.Totals.Errors["refused"] == 0 {
			t.Errorf("want refused connections: %+v", snap.Totals.Errors)
		}
	})
	t.Run("merged shards", func(t *testing.T) {
		var shards []*engine.Snapshot
		for i := 1; i <= 2; i++ {
			cfg := balanceConfig(url, stages...)
			cfg.Shard, cfg.ShardCount = i, 2
			shards = append(shards, run(t, cfg))
		}
		m, err := engine.Merge(shards, []string{"a.json", "b.json"}, false)
		if err != nil {
			t.Fatal(err)
		}
		checkSchema(t, m)
	})
}

// TestSnapshotSchemaRejects: the schema is a contract, not a formality: a field it does not
// know, a missing one, a wrong type, an unknown mode or a bad time are each refused, and the
// error names the field.
func TestSnapshotSchemaRejects(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	snap := run(t, balanceConfig(url, engine.Stage{Rate: 20, Duration: 200 * time.Millisecond}))
	tests := []struct {
		name      string
		edit      func(doc map[string]any)
		wantError string
	}{
		{"a field the schema does not know", func(d map[string]any) { d["calls"] = 1 }, "calls"},
		{"a required field missing", func(d map[string]any) { delete(d, "target") }, "target"},
		{"a count that is not a whole number", func(d map[string]any) { d["totals"].(map[string]any)["scheduled"] = 0.5 }, "scheduled"},
		{"an unknown field deep down", func(d map[string]any) { d["totals"].(map[string]any)["latency_ms"].(map[string]any)["p42"] = 1 }, "p42"},
		{"an unknown mode", func(d map[string]any) { d["mode"] = "half-open" }, "mode"},
		{"a time that is not RFC 3339", func(d map[string]any) { d["started_at"] = "yesterday" }, "started_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(snap)
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			tt.edit(doc)
			bad, _ := json.Marshal(doc)
			err := schemas.Validate(schema.Snapshot, bad)
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("accepted, or refused for another reason: %v", err)
			}
		})
	}
}
