package engine

import (
	"testing"
	"time"
)

// checksConfig is a mix of a batch of two calls that must have a result and cost 10 each, and
// a raw request (not JSON-RPC) that costs 5 and has no rules.
func checksConfig(t *testing.T) (*Config, *ExpectRule) {
	present := mustRule(t, ExpectPresent, "result", nil)
	batch := []byte(`[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}]`)
	calls := ParseRPCCalls(batch)
	if err := calls.SetSpecs([]CallSpec{{Expect: &Expect{Rules: []*ExpectRule{present}}, Cost: 10}}); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(Stage{Rate: 100, Duration: 2 * time.Second}, Stage{Rate: 100, Duration: 2 * time.Second})
	cfg.Requests = []Request{
		{Name: "batch", Body: batch, RPC: calls, Weight: 1, Items: 2, Cost: 20},
		{Name: "raw", Body: []byte(`{"q":1}`), Weight: 1, Items: 1, Cost: 5},
	}
	return cfg, present
}

// TestAggregatorChecks: invalid answers and cost are counted for the run, per stage, per
// request and per second, and the books still balance: invalid requests are among the failed,
// invalid calls among the failed calls; the cost offered is every send's, the cost accepted
// the calls answered ok.
func TestAggregatorChecks(t *testing.T) {
	cfg, present := checksConfig(t)
	a, c := startAggregator(cfg, 5*time.Second)
	b := a.getBatch()
	ms := func(n int) int64 { return int64(time.Duration(n) * time.Millisecond) }
	add := func(stage, req uint16, done int64, outcome Outcome, ok, invalid uint16, costOK uint32) {
		calls := uint16(2)
		if req == 1 {
			calls = 0
		}
		b.Samples = append(b.Samples, Sample{Intended: done - ms(1), Sent: done - ms(1), Done: done, Status: 200, Stage: stage, Request: req,
			Outcome: outcome, Calls: calls, CallsOK: ok, CallsInvalid: invalid, CostOK: costOK})
		c.Stage(int(stage)).Scheduled.Add(1)
		c.Stage(int(stage)).Sent.Add(1)
		c.RequestSent(int(stage), int(req))
	}
	add(0, 0, ms(100), OutcomeOK, 2, 0, 20)     // both calls ok: 20 accepted
	add(0, 0, ms(200), OutcomeFailed, 1, 1, 10) // one null result: invalid, 10 accepted
	b.Invalid = append(b.Invalid, InvalidCall{Sample: 1, Rule: present, N: 1})
	add(0, 1, ms(300), OutcomeOK, 0, 0, 5)      // the raw request: 5 accepted
	add(1, 0, ms(2100), OutcomeFailed, 0, 2, 0) // both calls null
	b.Invalid = append(b.Invalid, InvalidCall{Sample: 3, Rule: present, N: 2})
	add(1, 0, ms(2200), OutcomeLimited, 0, 1, 0) // a rate limit wins: not an invalid request
	b.Invalid = append(b.Invalid, InvalidCall{Sample: 4, Rule: present, N: 1})
	a.submit(b)
	a.Finish("completed")
	st := a.Stats()

	tot := st.Total
	if err := tot.CheckInvariant(); err != nil {
		t.Error(err)
	}
	wantExpect := ExpectStats{Invalid: 2, Calls: 4, ByRule: map[string]int64{"result present": 4}}
	if tot.Expect == nil || tot.Expect.Invalid != wantExpect.Invalid || tot.Expect.Calls != wantExpect.Calls || tot.Expect.ByRule["result present"] != 4 {
		t.Errorf("run expect %+v, want %+v", tot.Expect, wantExpect)
	}
	if tot.Failed < tot.Expect.Invalid || tot.Calls.Failed < tot.Expect.Calls {
		t.Errorf("failed %d (calls %d) do not hold the invalid %d (calls %d)", tot.Failed, tot.Calls.Failed, tot.Expect.Invalid, tot.Expect.Calls)
	}
	if tot.Calls.OK+tot.Calls.Limited+tot.Calls.Failed != tot.Calls.Sent {
		t.Errorf("calls %+v do not add up", tot.Calls)
	}
	// Offered: 4 batches of 20 and one raw request of 5; accepted: 20 + 10 + 5.
	if tot.Cost == nil || tot.Cost.Offered != 85 || tot.Cost.Accepted != 35 {
		t.Errorf("run cost %+v, want 85 offered, 35 accepted", tot.Cost)
	}
	if s2 := st.Stages[1].Summary; s2.Expect == nil || s2.Expect.Invalid != 1 || s2.Expect.Calls != 3 || s2.Cost == nil || s2.Cost.Offered != 40 || s2.Cost.Accepted != 0 {
		t.Errorf("stage 2: expect %+v cost %+v, want 1 invalid, 3 calls, 40 offered, 0 accepted", s2.Expect, s2.Cost)
	}
	if tot.DurationS <= 0 || tot.Cost.OfferedRate != roundMs(85/tot.DurationS) || tot.Cost.AcceptedRate != roundMs(35/tot.DurationS) {
		t.Errorf("run cost rates %+v over %vs, want 85 and 35 over that time", tot.Cost, tot.DurationS)
	}
	// Per request: the batch has rules and cost, the raw request a cost only.
	if r := tot.ByRequest["batch"]; r.Expect == nil || r.Expect.Invalid != 2 || r.Cost == nil || r.Cost.Accepted != 30 {
		t.Errorf("batch row: expect %+v cost %+v", r.Expect, r.Cost)
	}
	if r := tot.ByRequest["raw"]; r.Expect != nil || r.Cost == nil || r.Cost.Offered != 5 || r.Cost.Accepted != 5 {
		t.Errorf("raw row: expect %+v (want none) cost %+v", r.Expect, r.Cost)
	}
	// Per second: second 0 has one invalid request and 35 accepted, second 2 one more.
	if len(st.Timeline) < 3 {
		t.Fatalf("%d rows", len(st.Timeline))
	}
	if r := st.Timeline[0]; r.Invalid != 1 || r.CostAccepted != 35 {
		t.Errorf("second 0: invalid %d accepted %v, want 1 and 35", r.Invalid, r.CostAccepted)
	}
	if r := st.Timeline[2]; r.Invalid != 1 || r.CostAccepted != 0 {
		t.Errorf("second 2: invalid %d accepted %v, want 1 and 0", r.Invalid, r.CostAccepted)
	}
	var offered float64
	for _, r := range st.Timeline {
		offered += r.CostOffered
	}
	if offered != 85 {
		t.Errorf("the rows offered %v in all, want the run's 85", offered)
	}
}

// TestAggregatorNoChecks: a mix without rules or costs carries neither in its summaries, so
// the outputs say nothing about them.
func TestAggregatorNoChecks(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: time.Second})
	c := NewCounters(1)
	start := time.Now()
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	go a.Run()
	a.Finish("completed")
	st := a.Stats()
	if st.Total.Expect != nil || st.Total.Cost != nil || st.Current.Expect != nil || st.Current.Cost != nil {
		t.Errorf("expect %+v cost %+v in a run without rules or costs", st.Total.Expect, st.Total.Cost)
	}
}
