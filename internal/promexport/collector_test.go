package promexport

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// fakeStats is a published view of a run half way: two requests of a mix, 429s, a transport
// error, JSON-RPC errors and faults, the second stage of two.
func fakeStats() *engine.Stats {
	get := engine.Summary{OK: 70, Limited: 20, Failed: 5, Completed: 95,
		Status: map[string]int64{"200": 73, "429": 20}, Errors: map[string]int64{"timeout": 2}}
	slot := engine.Summary{OK: 8, Failed: 1, Completed: 9,
		Status: map[string]int64{"200": 8, "503": 1}, Errors: map[string]int64{}}
	total := engine.Summary{Scheduled: 120, Sent: 110, Dropped: 4, Queued: 6, Inflight: 6,
		Completed: get.Completed + slot.Completed, OK: get.OK + slot.OK, Limited: get.Limited, Failed: get.Failed + slot.Failed,
		Status: map[string]int64{"200": 81, "429": 20, "503": 1}, Errors: map[string]int64{"timeout": 2},
		RPCErrors: map[string]int64{"-32005": 3, "-32602": 1}, BytesIn: 9000, BytesOut: 7000,
		Connections: engine.Connections{Dialed: 3, Redialed: 2},
		Calls:       engine.CallStats{Sent: 130, OK: 100, Limited: 20, Failed: 4, Faults: map[string]int64{"missing": 2}},
		ByRequest:   map[string]engine.Summary{"getBalance": get, "getSlot": slot},
		Expect:      &engine.ExpectStats{Invalid: 2, Calls: 3, ByRule: map[string]int64{"result present": 3}},
		Cost:        &engine.CostStats{Offered: 2200, Accepted: 1600}}
	var lat, lat2 engine.LatencyCounts
	lat.Buckets[3], lat.Buckets[4], lat.Buckets[engine.LatencyBucketCount-1] = 50, 44, 1
	lat.Sum = 300 * time.Millisecond
	lat2.Buckets[0], lat2.Buckets[9] = 3, 6
	lat2.Sum = 601 * time.Millisecond
	return &engine.Stats{
		Name: "run", Target: "http://127.0.0.1:8899/", Mode: engine.ModeOpen, Elapsed: 12500 * time.Millisecond,
		Plan:  engine.PlanState{State: engine.StateHeld, Stage: 1, StageCount: 2, TargetRate: 250},
		Total: total,
		Last: engine.Row{RPS: 243.5, Sent: 249,
			Latency: engine.RowLatency{P50: 1.5, P90: 2.25, P95: 3, P99: 7.5, P999: 9, Max: 12}},
		LatencyByRequest: map[string]engine.LatencyCounts{"getBalance": lat, "getSlot": lat2},
		Tester:           engine.TesterLoad{Lag: 3 * time.Millisecond, Behind: true, CPU: 0.75, Cores: 2},
		Head: &engine.HeadState{Target: engine.HeadReading{Head: 1000, Known: true, Reads: 12, Failures: 1},
			Ref: &engine.HeadReading{Head: 1003, Known: true, Reads: 12}},
		Watch:    watchInfo(),
		Timeline: []engine.Row{{T: 10, Watch: watchRow(150)}, {T: 11, Watch: watchRow(180)}, {T: 12}},
	}
}

// watchInfo is a watched node: geth, and a series of its metrics scraped 12 times, 1 failed.
func watchInfo() *engine.WatchInfo {
	return &engine.WatchInfo{Cores: 2, Procs: []engine.WatchedProc{{Spec: "geth", Label: "geth", PID: 42}},
		Metrics: &engine.WatchedMetrics{Scrapes: 12, Failures: 1, Series: []engine.WatchedSeries{{Selector: "rate(rpc_requests)", Kind: engine.SeriesCounter, Matched: 1}}}}
}

// watchRow is a second's reading of it: geth at cpu %, 8 kB written a second.
func watchRow(cpu float64) *engine.WatchRow {
	fds, rd, wr, calls := 120, 0.0, 8192.0, 240.0
	return &engine.WatchRow{
		Procs:  []*engine.ProcUse{{CPU: cpu, RSS: 1 << 30, Threads: 40, FDs: &fds, ReadBps: &rd, WriteBps: &wr}},
		Self:   &engine.ProcUse{CPU: 30, RSS: 1 << 25, Threads: 9, FDs: &fds, ReadBps: &rd, WriteBps: &rd},
		Series: []*float64{&calls},
	}
}

// TestCollect: each number of the view comes out under its name and labels, with its value.
func TestCollect(t *testing.T) {
	st := fakeStats()
	c := NewCollector(Options{Target: st.Target, Mode: string(st.Mode), Version: "v1.2.3"})
	c.SetSource(func() *engine.Stats { return st })
	got, targets := gather(t, c)
	tot, get := st.Total, st.Total.ByRequest["getBalance"]
	rows := []struct {
		series string
		want   float64
	}{
		{`rpcstress_requests_scheduled_total{}`, float64(tot.Scheduled)},                                             // the books: what the plan asked
		{`rpcstress_requests_sent_total{}`, float64(tot.Sent)},                                                       // what went out
		{`rpcstress_requests_dropped_total{}`, float64(tot.Dropped)},                                                 // what the backlog could not hold
		{`rpcstress_requests_inflight{}`, float64(tot.Inflight)},                                                     // sent, not answered
		{`rpcstress_requests_queued{}`, float64(tot.Queued)},                                                         // waiting for a connection
		{`rpcstress_requests_total{outcome="ok"}`, float64(tot.OK)},                                                  // outcomes of the run
		{`rpcstress_requests_total{outcome="limited"}`, float64(tot.Limited)},                                        // the 429s and [limits] codes
		{`rpcstress_requests_total{outcome="failed"}`, float64(tot.Failed)},                                          // everything else
		{`rpcstress_method_requests_total{method="getBalance",outcome="limited"}`, float64(get.Limited)},             // per request of the mix
		{`rpcstress_method_requests_total{method="getSlot",outcome="limited"}`, 0},                                   // a zero too, for rate() to start from
		{`rpcstress_responses_total{status="429"}`, float64(tot.Status["429"])},                                      // HTTP statuses
		{`rpcstress_responses_total{status="503"}`, float64(tot.Status["503"])},                                      // a status of one request only
		{`rpcstress_transport_errors_total{error="timeout"}`, float64(tot.Errors["timeout"])},                        // no HTTP answer
		{`rpcstress_rpc_errors_total{code="-32005"}`, float64(tot.RPCErrors["-32005"])},                              // JSON-RPC errors by code
		{`rpcstress_calls_sent_total{}`, float64(tot.Calls.Sent)},                                                    // calls beside requests
		{`rpcstress_calls_total{outcome="limited"}`, float64(tot.Calls.Limited)},                                     // calls by outcome
		{`rpcstress_call_faults_total{fault="missing"}`, float64(tot.Calls.Faults["missing"])},                       // answers that broke JSON-RPC
		{`rpcstress_received_bytes_total{}`, float64(tot.BytesIn)},                                                   // bytes in
		{`rpcstress_sent_bytes_total{}`, float64(tot.BytesOut)},                                                      // bytes out
		{`rpcstress_connections_dialed_total{}`, float64(tot.Connections.Dialed)},                                    // connections
		{`rpcstress_connections_redialed_total{}`, float64(tot.Connections.Redialed)},                                // dialed again (WebSocket)
		{`rpcstress_target_rate{}`, float64(st.Plan.TargetRate)},                                                     // the rate asked now
		{`rpcstress_sent_rate{}`, st.Last.Sent},                                                                      // sent in the last second
		{`rpcstress_achieved_rate{}`, st.Last.RPS},                                                                   // answered in the last second
		{`rpcstress_stage{}`, float64(st.Plan.Stage + 1)},                                                            // counted from 1, as shown
		{`rpcstress_stages{}`, float64(st.Plan.StageCount)},                                                          // the plan's stages
		{`rpcstress_state{state="held"}`, 1},                                                                         // the state now …
		{`rpcstress_state{state="running"}`, 0},                                                                      // … and not the others
		{`rpcstress_last_second_latency_seconds{quantile="0.99"}`, st.Last.Latency.P99 / 1000},                       // seconds, not ms
		{`rpcstress_last_second_latency_seconds{quantile="1"}`, st.Last.Latency.Max / 1000},                          // the max is quantile 1
		{`rpcstress_tester_cpu_cores{}`, st.Tester.CPU},                                                              // the tester's own CPU
		{`rpcstress_tester_lag_seconds{}`, st.Tester.Lag.Seconds()},                                                  // its own delay
		{`rpcstress_tester_saturated{}`, 1},                                                                          // its latency is partly its own
		{`rpcstress_elapsed_seconds{}`, st.Elapsed.Seconds()},                                                        // time since the start
		{`rpcstress_run_info{mode="open",version="v1.2.3"}`, 1},                                                      // always 1
		{`rpcstress_latency_seconds_count{method="getBalance"}`, float64(st.LatencyByRequest["getBalance"].Count())}, // a histogram per request
		{`rpcstress_latency_seconds_sum{method="getSlot"}`, st.LatencyByRequest["getSlot"].Sum.Seconds()},            // its sum in seconds
		{`rpcstress_invalid_requests_total{}`, float64(tot.Expect.Invalid)},                                          // expect rules broken
		{`rpcstress_invalid_calls_total{rule="result present"}`, float64(tot.Expect.ByRule["result present"])},       // by rule
		{`rpcstress_cost_offered_total{}`, float64(tot.Cost.Offered)},                                                // cost units sent
		{`rpcstress_cost_accepted_total{}`, float64(tot.Cost.Accepted)},                                              // and answered ok
		{`rpcstress_head_target{}`, float64(st.Head.Target.Head)},                                                    // the target's head
		{`rpcstress_head_reference{}`, float64(st.Head.Ref.Head)},                                                    // the reference's
		{`rpcstress_head_lag_blocks{}`, float64(st.Head.Ref.Head - st.Head.Target.Head)},                             // how far behind
		{`rpcstress_head_read_failures_total{node="target"}`, float64(st.Head.Target.Failures)},                      // its failed reads
		{`rpcstress_head_reads_total{node="reference"}`, float64(st.Head.Ref.Reads)},                                 // the reference's reads
		{`rpcstress_node_cpu_percent{process="geth"}`, 180},                                                          // the newest second read
		{`rpcstress_node_cpu_percent{process="rpcstress"}`, 30},                                                      // rpcstress itself
		{`rpcstress_node_resident_bytes{process="geth"}`, 1 << 30},                                                   // its memory
		{`rpcstress_node_threads{process="geth"}`, 40},                                                               // its threads
		{`rpcstress_node_open_files{process="geth"}`, 120},                                                           // its files
		{`rpcstress_node_disk_write_bytes_per_second{process="geth"}`, 8192},                                         // its disk writes
		{`rpcstress_node_disk_read_bytes_per_second{process="geth"}`, 0},                                             // and reads
		{`rpcstress_node_series{series="rate(rpc_requests)"}`, 240},                                                  // the node's own series
		{`rpcstress_node_scrapes_total{}`, 12},                                                                       // scrapes of it
		{`rpcstress_node_scrape_failures_total{}`, 1},                                                                // and how many failed
	}
	for _, r := range rows {
		v, ok := got[r.series]
		if !ok || v != r.want {
			t.Errorf("%s = %v (present %v), want %v", r.series, v, ok, r.want)
		}
	}
	for name, target := range targets {
		if target != st.Target {
			t.Errorf("%s: target %q, want %q", name, target, st.Target)
		}
	}
	if len(targets) != len(c.d.all()) {
		t.Errorf("%d metrics carry the target, want every one of the %d", len(targets), len(c.d.all()))
	}
}

// TestCollectLatency: the histograms are the engine's buckets made cumulative, one per request
// of the mix, with le the buckets' upper edges in seconds; summed over method they are the
// run's answers.
func TestCollectLatency(t *testing.T) {
	st := fakeStats()
	c := NewCollector(Options{})
	c.SetSource(func() *engine.Stats { return st })
	got, _ := gather(t, c)
	edges := engine.LatencyEdges()
	for name, lc := range st.LatencyByRequest {
		var cum int64
		for i, e := range edges {
			cum += lc.Buckets[i]
			key := fmt.Sprintf(`rpcstress_latency_seconds_bucket{le=%q,method=%q}`, fmt.Sprint(e.Seconds()), name)
			if got[key] != float64(cum) {
				t.Errorf("%s = %v, want %d", key, got[key], cum)
			}
		}
	}
	if n := got.sum("rpcstress_latency_seconds_count"); n != float64(st.Total.Completed) {
		t.Errorf("histograms count %v answers, the run %d", n, st.Total.Completed)
	}
	if n := got.sum("rpcstress_latency_seconds_bucket", `le="+Inf"`); n != float64(st.Total.Completed) {
		t.Errorf("+Inf buckets hold %v answers, the run %d", n, st.Total.Completed)
	}
}

// TestCollectEdgeCases: what a scrape gives before the run starts, in a second without
// answers, with an unknown CPU, for a profile without expect rules, costs or a chain, and with
// names that are not UTF-8 (from a target file).
func TestCollectEdgeCases(t *testing.T) {
	c := NewCollector(Options{Mode: "open"})
	got, _ := gather(t, c)
	if len(got) != 1 || got[`rpcstress_run_info{mode="open",version=""}`] != 1 {
		t.Errorf("before the run: %v, want only the run's info", got)
	}
	st := fakeStats()
	st.Last = engine.Row{}
	st.Tester.CPU = -1
	st.Total.Expect, st.Total.Cost, st.Head = nil, nil, nil // a profile without rules, costs or a chain
	st.Total.ByRequest["bad\xffname"] = engine.Summary{OK: 1}
	c.SetSource(func() *engine.Stats { return st })
	got, _ = gather(t, c) // fails on an invalid metric
	for _, name := range []string{"rpcstress_last_second_latency_seconds", "rpcstress_tester_cpu_cores",
		"rpcstress_invalid_requests_total", "rpcstress_cost_offered_total", "rpcstress_head_target", "rpcstress_head_reads_total"} {
		if n := got.sum(name); n != 0 || math.IsNaN(n) {
			t.Errorf("%s present (%v): not to be emitted", name, n)
		}
		for k := range got {
			if len(k) > len(name) && k[:len(name)+1] == name+"{" {
				t.Errorf("%s: not to be emitted", k)
			}
		}
	}
	if got.sum("rpcstress_method_requests_total", "method=\"bad\ufffdname\"") != 1 {
		t.Errorf("a name that is not UTF-8 is not exported with the bad byte replaced: %v", got)
	}
}
