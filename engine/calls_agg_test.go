package engine

import (
	"testing"
	"time"
)

// TestAggregatorCalls: calls are counted beside requests, in the totals, the stage, per
// request and per second; a request that is not JSON-RPC counts none; faults land by kind.
func TestAggregatorCalls(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: 5 * time.Second})
	batch := `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]`
	cfg.Requests = []Request{
		{Name: "a+b x2", Body: []byte(batch), Weight: 1, Items: 2, RPC: ParseRPCCalls([]byte(batch))},
		{Name: "GET /health", Body: nil, Weight: 1, Items: 1},
	}
	a, c := startAggregator(cfg, 3*time.Second)
	b := a.getBatch()
	at := func(ms int) (int64, int64, int64) {
		d := int64(time.Duration(ms) * time.Millisecond)
		return d - 1, d - 1, d
	}
	add := func(ms int, s Sample) {
		s.Intended, s.Sent, s.Done = at(ms)
		b.Samples = append(b.Samples, s)
	}
	// Two batches: one fully ok, one with a good call and a missing one; a batch still in
	// flight; a raw request; a batch lost to a timeout (both calls failed, no fault).
	add(100, Sample{Status: 200, Outcome: OutcomeOK, Calls: 2, CallsOK: 2})
	add(200, Sample{Status: 200, Outcome: OutcomeFailed, Calls: 2, CallsOK: 1})
	b.Faults = append(b.Faults, CallFault{Sample: 1, Fault: FaultMissing, N: 1})
	add(300, Sample{Status: 200, Outcome: OutcomeOK, Request: 1})
	add(1200, Sample{Err: ErrTimeout, Outcome: OutcomeFailed, Calls: 2})
	for range 4 {
		c.Stage(0).Scheduled.Add(1)
		c.Stage(0).Sent.Add(1)
		c.RequestSent(0, 0)
	}
	c.Stage(0).Scheduled.Add(1)
	c.Stage(0).Sent.Add(1)
	c.RequestSent(0, 1)
	a.submit(b)
	a.Finish("completed")
	st := a.Stats()

	want := CallStats{Sent: 8, OK: 3, Failed: 3, Faults: map[string]int64{"missing": 1}}
	check := func(where string, got CallStats) {
		t.Helper()
		if got.Sent != want.Sent || got.OK != want.OK || got.Limited != want.Limited || got.Failed != want.Failed ||
			len(got.Faults) != 1 || got.Faults["missing"] != 1 {
			t.Errorf("%s: calls %+v, want %+v", where, got, want)
		}
	}
	check("totals", st.Total.Calls)
	check("stage 1", st.Stages[0].Summary.Calls)
	check("by request", st.Total.ByRequest["a+b x2"].Calls)
	if raw := st.Total.ByRequest["GET /health"].Calls; raw.Sent != 0 || raw.Completed() != 0 || raw.Faults != nil {
		t.Errorf("a raw request counted calls: %+v", raw)
	}
	if st.Total.OK != 2 || st.Total.Failed != 2 || st.Total.Completed != 4 {
		t.Errorf("requests ok %d failed %d completed %d: the request books must not change", st.Total.OK, st.Total.Failed, st.Total.Completed)
	}
	if r := st.Timeline[0]; r.CallsOK != 3 || r.CallsFailed != 1 || r.CallsLimited != 0 {
		t.Errorf("second 0: calls ok %d failed %d limited %d, want 3 1 0", r.CallsOK, r.CallsFailed, r.CallsLimited)
	}
	if r := st.Timeline[1]; r.CallsOK != 0 || r.CallsFailed != 2 {
		t.Errorf("second 1: calls ok %d failed %d, want 0 2", r.CallsOK, r.CallsFailed)
	}
}
