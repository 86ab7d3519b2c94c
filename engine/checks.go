package engine

// This file counts what the profile's expect rules and costs add to a span's numbers.

// spanBooks are what a span's summary takes from outside its accumulator: the counts of the
// lock-free Counters (they change where no sample exists) and what the span's requests ask.
type spanBooks struct {
	scheduled, sent, dropped int64
	callsSent                int64 // the JSON-RPC calls of the requests sent
	costSent                 int64 // their cost: the load offered, in cost units
	rules                    bool  // the requests have expect rules: the summary carries Expect
	costs                    bool  // the requests have a cost: the summary carries Cost
}

// checkAcc counts the invalid answers of a span and the cost accepted.
type checkAcc struct {
	invalid      int64 // requests failed with an invalid call
	invalidCalls int64
	byRule       map[string]int64 // made when a rule is first broken
	costOK       int64
}

func (c *checkAcc) add(s *Sample) {
	if s.Invalid() {
		c.invalid++
	}
	c.invalidCalls += int64(s.CallsInvalid)
	c.costOK += int64(s.CostOK)
}

// addRule counts n calls that broke r first.
func (c *checkAcc) addRule(r *ExpectRule, n uint32) {
	if c.byRule == nil {
		c.byRule = map[string]int64{}
	}
	c.byRule[r.Label] += int64(n)
}

// stats fills s.Expect and s.Cost when the span's requests have rules or costs. The cost's
// rates are set with the span's duration (SetDuration).
func (c *checkAcc) stats(s *Summary, bk spanBooks) {
	if bk.rules {
		e := &ExpectStats{Invalid: c.invalid, Calls: c.invalidCalls}
		if len(c.byRule) > 0 {
			e.ByRule = make(map[string]int64, len(c.byRule))
			for k, n := range c.byRule {
				e.ByRule[k] = n
			}
		}
		s.Expect = e
	}
	if bk.costs {
		s.Cost = &CostStats{Offered: bk.costSent, Accepted: c.costOK}
	}
}

// Checks reports whether any call has expect rules.
func (c *RPCCalls) Checks() bool {
	if c == nil {
		return false
	}
	for _, sp := range c.specs {
		if sp.Expect != nil && len(sp.Expect.Rules) > 0 {
			return true
		}
	}
	return false
}

// sentIn sums the sends of the requests from..to-1 in stage (stage < 0: the whole run):
// requests, their calls and their cost. A request is read only once sent: a streamed one is
// described (by the feeder, see feed) before it is, and may be written while the run goes
// until then.
func (a *Aggregator) sentIn(stage, from, to int) (sent, calls, cost int64) {
	for req := from; req < to; req++ {
		if n := a.counters.RequestSentIn(stage, req); n > 0 {
			r := &a.cfg.Requests[req]
			sent += n
			calls += n * int64(r.RPC.Calls())
			cost += n * int64(r.Cost)
		}
	}
	return sent, calls, cost
}

// asks reports whether any of the requests from..to-1 has expect rules or a cost. Streamed
// requests (a Source's) have neither, and may be written while the run goes: never read.
func (a *Aggregator) asks(from, to int) (rules, costs bool) {
	if a.cfg.Source != nil {
		return false, false
	}
	for req := from; req < min(to, len(a.cfg.Requests)); req++ {
		r := &a.cfg.Requests[req]
		rules = rules || r.RPC.Checks()
		costs = costs || r.Cost > 0
	}
	return rules, costs
}
