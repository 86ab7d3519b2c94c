package tui

import (
	"encoding/json"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// testSnapshot is a hand-built run of two stages whose numbers add up: 50/s for 10s, all 200
// (5 of them carrying JSON-RPC error -32602), then 200/s for 10s against a limiter answering 429,
// with 5 timeouts, 10 dropped and 5 still in flight at the end.
func testSnapshot() *engine.Snapshot {
	start := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	lat := func(base float64) engine.Percentiles {
		return engine.Percentiles{Min: base * 0.4, P50: base, P75: base * 1.3, P90: base * 1.9,
			P95: base * 2.6, P99: base * 7.1, P999: base * 15.2, Max: base * 21.7, Mean: base * 1.2}
	}
	stage1 := engine.Summary{
		Scheduled: 500, Sent: 500, Completed: 500,
		Status:    map[string]int64{"200": 500},
		Errors:    map[string]int64{},
		RPCErrors: map[string]int64{"-32602": 5},
		BytesIn:   245_000, BytesOut: 61_500, DurationS: 10, RPS: 50,
		OK: 495, Failed: 5,
		Latency: lat(1.87), Service: lat(1.62),
		LatencyByOutcome: map[string]engine.Percentiles{"ok": lat(1.87), "failed": lat(1.91)},
	}
	stage2 := engine.Summary{
		Scheduled: 2000, Sent: 1990, Completed: 1985, Inflight: 5, Dropped: 10,
		Status:    map[string]int64{"200": 1200, "429": 780},
		Errors:    map[string]int64{"timeout": 5},
		RPCErrors: map[string]int64{},
		BytesIn:   989_567, BytesOut: 395_289, DurationS: 10, RPS: 198.5,
		OK: 1200, Limited: 780, Failed: 5,
		Latency: lat(4.12), Service: lat(2.05),
		LatencyByOutcome: map[string]engine.Percentiles{"ok": lat(5.3), "limited": lat(0.412), "failed": lat(5000)},
	}
	total := engine.Summary{
		Scheduled: 2500, Sent: 2490, Completed: 2485, Inflight: 5, Dropped: 10,
		Status:    map[string]int64{"200": 1700, "429": 780},
		Errors:    map[string]int64{"timeout": 5},
		RPCErrors: map[string]int64{"-32602": 5},
		BytesIn:   1_234_567, BytesOut: 456_789, DurationS: 20, RPS: 124.25,
		OK: 1695, Limited: 780, Failed: 10,
		Latency: lat(3.21), Service: lat(1.98),
		LatencyByOutcome: map[string]engine.Percentiles{
			"ok": lat(3.9), "limited": lat(0.412), "failed": lat(2500),
		},
		Connections: engine.Connections{Dialed: 64, DialMean: 0.842, DialMax: 3.2},
	}
	profile, _ := json.Marshal(map[string]any{"name": "getBalance", "url": "http://127.0.0.1:8899", "connections": 64})
	return &engine.Snapshot{
		Schema:    engine.SnapshotSchema,
		Tool:      engine.ToolInfo{Name: "rpcstress", Version: "v0.1.0-test"},
		Host:      "bench-1",
		Profile:   profile,
		Target:    "http://127.0.0.1:8899",
		Mode:      engine.ModeOpen,
		StartedAt: start,
		EndedAt:   start.Add(20*time.Second + 150*time.Millisecond),
		EndReason: "completed",
		Totals:    total,
		Stages: []engine.StageStats{
			{Index: 0, Spec: engine.Stage{Rate: 50, Duration: 10 * time.Second}, Summary: stage1},
			{Index: 1, Spec: engine.Stage{Rate: 200, Duration: 10 * time.Second}, Summary: stage2},
		},
		Events: []engine.Event{
			{T: 0.0001, Kind: "stage", Detail: "stage 1/2: 50/s for 10s"},
			{T: 10.0002, Kind: "stage", Detail: "stage 2/2: 200/s for 10s"},
			{T: 20.0003, Kind: "stop", Detail: "completed"},
		},
		RPCMessages: map[string]string{"-32602": "Invalid params: invalid type: string \"x\", expected u64"},
		RateLimitHeaders: map[string]string{
			"Retry-After":           "1",
			"X-RateLimit-Remaining": "0",
		},
		SaturatedSeconds: 2,
	}
}
