package tui

import (
	"fmt"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// runDone is the message of a run that ended, its snapshot (the fixtures') saved at path.
func runDone(path string) RunDoneMsg { return RunDoneMsg{Snapshot: fixture.Snapshot(), Path: path} }

// testStats is a hand-built live view of a run 65 s in: stage 1 (50/s for 40 s, all 200) is
// over; stage 2 (200/s for 60 s) runs 25 s in against a limiter that answers a growing share
// with 429. The generator is saturated and has dropped 12 requests; there are timeouts, resets
// and a JSON-RPC error. Every number is fixed, so a view of it is the same on every run.
func testStats() *engine.Stats {
	var timeline []engine.Row
	for t := range 65 {
		r := engine.Row{T: t, TargetRate: 50, Errors: map[string]int64{}, RPCErrors: map[string]int64{}}
		wobble := int64(t*7%5) - 2 // -2 … +2, the same on every run
		if t < 40 {
			r.OK = 50 + wobble
			r.Status = map[string]int64{"200": r.OK}
			r.Latency = engine.RowLatency{P50: 1.8, P90: 3.4, P95: 5.1, P99: 12.5, P999: 24.6, Max: 30}
		} else {
			r.Stage, r.TargetRate = 1, 200
			r.Limited = int64(t-40)*3 + wobble + 4
			r.OK = 198 + wobble - r.Limited
			r.Status = map[string]int64{"200": r.OK, "429": r.Limited}
			r.Latency = engine.RowLatency{P50: 4.12, P90: 7.83, P95: 10.7, P99: 29.3, P999: 62.6, Max: 89.4}
		}
		r.RPS = float64(r.OK + r.Limited + r.Failed)
		r.Sent = r.TargetRate + float64(wobble/2) // what went out, whatever came back
		r.Inflight = 3
		timeline = append(timeline, r)
	}
	last := timeline[len(timeline)-1]

	lat := func(base float64) engine.Percentiles {
		return engine.Percentiles{Min: base * 0.4, P50: base, P75: base * 1.3, P90: base * 1.9,
			P95: base * 2.6, P99: base * 7.1, P999: base * 15.2, Max: base * 21.7, Mean: base * 1.2}
	}
	current := engine.Summary{
		Scheduled: 5012, Sent: 5000, Completed: 4997, Inflight: 3, Dropped: 12,
		Status:    map[string]int64{"200": 3890, "429": 1100, "503": 2},
		Errors:    map[string]int64{"timeout": 4, "reset": 1},
		RPCErrors: map[string]int64{},
		RPS:       199.9, DurationS: 25,
		OK: 3890, Limited: 1100, Failed: 7,
		Latency: lat(4.12), Service: lat(3.05),
		LatencyByOutcome: map[string]engine.Percentiles{"ok": lat(5.3), "limited": lat(0.41)},
	}
	total := engine.Summary{
		Scheduled: 7012, Sent: 7000, Completed: 6997, Inflight: 3, Dropped: 12,
		Status:    map[string]int64{"200": 5890, "429": 1100, "503": 2},
		Errors:    map[string]int64{"timeout": 4, "reset": 1},
		RPCErrors: map[string]int64{"-32602": 5},
		RPS:       107.6, DurationS: 65,
		OK: 5885, Limited: 1100, Failed: 12,
		Latency: lat(3.21), Service: lat(2.5),
		Connections: engine.Connections{Dialed: 32, DialMean: 0.412, DialMax: 1.8},
		// A mix of two (3:1), so the wide layout shows its requests table.
		ByRequest: map[string]engine.Summary{
			"getBalance": {Completed: 5248, OK: 4414, Limited: 825, Failed: 9, Latency: lat(3.4)},
			"getSlot":    {Completed: 1749, OK: 1471, Limited: 275, Failed: 3, Latency: lat(2.6)},
		},
	}
	return &engine.Stats{
		Name:    "getBalance",
		Target:  "http://127.0.0.1:8899",
		Mode:    engine.ModeOpen,
		Elapsed: 65*time.Second + 400*time.Millisecond,
		Plan: engine.PlanState{
			State: engine.StateRunning, Stage: 1, StageCount: 3,
			StageStart: 40 * time.Second, StageLeft: 34*time.Second + 600*time.Millisecond,
			TargetRate: 200, Saturated: true,
		},
		Total:    total,
		Current:  current,
		Last:     last,
		Timeline: timeline,
		Stages: []engine.StageStats{
			{Index: 0, Spec: engine.Stage{Rate: 50, Duration: 40 * time.Second}, Summary: engine.Summary{
				Scheduled: 2000, Sent: 2000, Completed: 2000, Status: map[string]int64{"200": 2000},
				DurationS: 40, RPS: 50, OK: 1995, Failed: 5, Latency: lat(1.8),
			}},
			{Index: 1, Spec: engine.Stage{Rate: 200, Duration: 60 * time.Second}},
			{Index: 2, Spec: engine.Stage{Rate: 400, Duration: 60 * time.Second}},
		},
		Events: []engine.Event{
			{T: 0.0001, Kind: "stage", Detail: "stage 1/3: 50/s for 40s"},
			{T: 40.0002, Kind: "stage", Detail: "stage 2/3: 200/s for 1m0s"},
			{T: 50.2, Kind: "rate", Detail: "target 220/s (was 200/s)"},
			{T: 55.7, Kind: "rate", Detail: "target 200/s (was 220/s)"},
			{T: 58.1, Kind: "pause", Detail: "paused"},
			{T: 59.3, Kind: "resume", Detail: "resumed"},
			{T: 61.0, Kind: "save", Detail: "runs/getBalance-20250301-100105.json"},
		},
		// The tester woke late in the last second while the machine was busy with others.
		Tester:     engine.TesterLoad{Lag: 23400 * time.Microsecond, Behind: true, CPU: 0.31, Cores: 2},
		RPCMessage: map[string]string{"-32602": "Invalid params: invalid type: string \"x\", expected u64"},
		// The engine's 1-2-5 buckets of the current stage; they add up to Current.Completed.
		Histogram: []engine.Bucket{
			{From: 0.5, To: 1, Count: 120}, {From: 1, To: 2, Count: 400}, {From: 2, To: 5, Count: 2600},
			{From: 5, To: 10, Count: 1300}, {From: 10, To: 20, Count: 420}, {From: 20, To: 50, Count: 120},
			{From: 50, To: 100, Count: 35}, {From: 100, To: 200, Count: 2},
		},
	}
}

// fakeController records the control calls the dashboard makes.
type fakeController struct {
	calls []string
}

func (f *fakeController) record(s string) { f.calls = append(f.calls, s) }

func (f *fakeController) SetRate(r engine.Rate)    { f.record("SetRate(" + r.String() + ")") }
func (f *fakeController) Pause()                   { f.record("Pause()") }
func (f *fakeController) Resume()                  { f.record("Resume()") }
func (f *fakeController) NextStage()               { f.record("NextStage()") }
func (f *fakeController) PrevStage()               { f.record("PrevStage()") }
func (f *fakeController) Hold(on bool)             { f.record(fmt.Sprintf("Hold(%v)", on)) }
func (f *fakeController) Stop(reason string)       { f.record("Stop(" + reason + ")") }
func (f *fakeController) Mark(kind, detail string) { f.record("Mark(" + kind + ", " + detail + ")") }

// withChecks makes the fixture a run with expect rules and costs: some answers broke rules
// (long labels among them), and the cost rates run to hundreds of thousands of units a second.
func withChecks(st *engine.Stats) {
	byRule := map[string]int64{"result present": 1234, `result.transactions.0.hash matches "^0x[0-9a-f]{64}$"`: 56,
		"result nonempty": 7}
	st.Total.Expect = &engine.ExpectStats{Invalid: 1290, Calls: 1297, ByRule: byRule}
	st.Total.Cost = &engine.CostStats{Offered: 98_765_432, Accepted: 87_654_321, OfferedRate: 151_946.8, AcceptedRate: 134_852.8}
	st.Current.Expect = &engine.ExpectStats{Invalid: 1200, Calls: 1200}
	st.Current.Cost = &engine.CostStats{OfferedRate: 319_999.9, AcceptedRate: 301_234.5}
	st.Stages[0].Summary.Expect = &engine.ExpectStats{Invalid: 90, Calls: 97}
	st.Stages[0].Summary.Cost = &engine.CostStats{OfferedRate: 80_000, AcceptedRate: 79_000}
	st.Last.Invalid, st.Last.CostOffered, st.Last.CostAccepted = 48, 320_000, 298_765.4
	for name, r := range st.Total.ByRequest {
		r.Expect = &engine.ExpectStats{Invalid: r.Failed}
		st.Total.ByRequest[name] = r
	}
}
