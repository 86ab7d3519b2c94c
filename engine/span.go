package engine

import (
	"strconv"
	"time"
)

// spanAcc accumulates the completed requests of one span (a stage or the whole run). It only
// counts and records; percentiles and rates are derived when a Summary is made.
type spanAcc struct {
	answerCounts
	bytesOut int64
	first    int64 // earliest intended time seen, ns since start
	last     int64 // latest done time seen, ns since start
	latency  *latencyHist
	service  *latencyHist
	// byOutcome is the latency of each outcome, each made at its outcome's first answer: a
	// run answered ok throughout holds no empty 190 KiB histograms for limited and failed
	// (four of them a target, with one stage). A request's accumulator keeps none.
	byOutcome  [outcomeCount]*latencyHist
	perOutcome bool
	lag        *latencyHist // sent − intended: the tester's own delay, not the target's
	buckets    latencyBuckets
	encoded    *requestEncoding // per-request accumulators: the histograms as last saved
}

func newSpanAcc() *spanAcc {
	return &spanAcc{answerCounts: newAnswerCounts(), latency: newLatencyHist(histSigFigs), service: newLatencyHist(histSigFigs),
		lag: newLatencyHist(2), first: -1, perOutcome: true}
}

// newRequestAcc is the lighter accumulator kept per request of the mix, since there is one per
// request per stage: latency and service histograms at two significant figures (1 %, plenty to
// compare methods) and no per-outcome histograms. Packed, they take what the request's answers
// fill (a few KiB, not the 26 KiB of dense ones: 10,000 requests took 300 MB after 3 s); dense
// (a mix of a few requests, see denseRequestAccs) they record several times faster. Both give
// the same percentiles and encoding.
func newRequestAcc(dense bool) *spanAcc {
	acc := &spanAcc{answerCounts: newAnswerCounts(), first: -1}
	if dense {
		acc.latency, acc.service = newLatencyHist(2), newLatencyHist(2)
	} else {
		acc.latency, acc.service = newPackedLatencyHist(2), newPackedLatencyHist(2)
	}
	return acc
}

// denseRequestAccs is how many per-request accumulators (requests × stages, and the run's) may
// be dense: about 1.7 MB at most, for a mix of a few requests, where every answer is recorded
// into one of them.
const denseRequestAccs = 32

// add counts one sample.
func (a *spanAcc) add(s *Sample) {
	a.count(s)
	a.bytesOut += int64(s.BytesOut)
	if a.first < 0 || s.Intended < a.first {
		a.first = s.Intended
	}
	if s.Done > a.last {
		a.last = s.Done
	}
	lat := s.Latency()
	a.latency.record(lat)
	a.service.record(s.Service())
	if a.perOutcome {
		h := a.byOutcome[s.Outcome]
		if h == nil {
			h = newLatencyHist(histSigFigs)
			a.byOutcome[s.Outcome] = h
		}
		h.record(lat)
	}
	if a.lag != nil {
		a.lag.record(s.Sent - s.Intended)
	}
	a.buckets.add(lat)
}

// summary derives the numbers of the span. Scheduled, sent and dropped (and the calls and
// cost sent) come from the lock-free counters (they change where no sample exists); in flight
// is what was sent and not completed.
func (a *spanAcc) summary(bk spanBooks) Summary {
	s := Summary{
		Scheduled: bk.scheduled,
		Sent:      bk.sent,
		Dropped:   bk.dropped,
		Completed: a.completed,
		Inflight:  bk.sent - a.completed,
		Queued:    max(bk.scheduled-bk.sent-bk.dropped, 0),
		Status:    a.status.toMap(),
		Errors:    errMap(&a.errs),
		RPCErrors: rpcMap(a.rpc),
		BytesIn:   a.bytesIn,
		BytesOut:  a.bytesOut,
		OK:        a.outcomes[OutcomeOK],
		Limited:   a.outcomes[OutcomeLimited],
		Failed:    a.outcomes[OutcomeFailed],
		Latency:   a.latency.percentiles(),
		Service:   a.service.percentiles(),
		SendLag:   a.lag.percentiles(),
		Calls:     a.calls.stats(bk.callsSent),
	}
	a.checks.stats(&s, bk)
	s.LatencyByOutcome = map[string]Percentiles{}
	for o, h := range a.byOutcome {
		if h != nil && h.TotalCount() > 0 {
			s.LatencyByOutcome[Outcome(o).String()] = h.percentiles()
		}
	}
	if a.first >= 0 && a.last > a.first {
		s.SetDuration(time.Duration(a.last - a.first))
	}
	return s
}

// SetDuration sets the span's length and its rates over that time: answers completed, and the
// cost offered and accepted. A summary measured over another time than its first send to its
// last answer (a stage: the time it was active; a run: its wall time) is set here too, so the
// rates always follow the duration shown beside them.
func (s *Summary) SetDuration(d time.Duration) {
	s.DurationS, s.RPS = roundMs(d.Seconds()), 0
	if d > 0 {
		s.RPS = roundMs(float64(s.Completed) / d.Seconds())
	}
	if s.Cost != nil {
		// A copy: the summary may share its Cost with a published view.
		c := *s.Cost
		c.OfferedRate, c.AcceptedRate = 0, 0
		if d > 0 {
			c.OfferedRate = roundMs(float64(c.Offered) / d.Seconds())
			c.AcceptedRate = roundMs(float64(c.Accepted) / d.Seconds())
		}
		s.Cost = &c
	}
}

func errMap(counts *[errClassCount]int64) map[string]int64 {
	m := map[string]int64{}
	for c, n := range counts {
		if n > 0 && ErrClass(c) != ErrNone {
			m[ErrClass(c).String()] = n
		}
	}
	return m
}

func rpcMap(counts map[int32]int64) map[string]int64 {
	m := make(map[string]int64, len(counts))
	for code, n := range counts {
		m[strconv.Itoa(int(code))] = n
	}
	return m
}

// answerCounts count the completed requests of a span or of a timeline second by what came
// back: HTTP status or transport error class, JSON-RPC error codes, outcome, the calls' outcomes
// and faults, and the bytes received.
type answerCounts struct {
	status    statusCounts
	errs      [errClassCount]int64
	rpc       map[int32]int64
	outcomes  [outcomeCount]int64
	calls     callAcc
	checks    checkAcc
	completed int64
	bytesIn   int64
}

func newAnswerCounts() answerCounts { return answerCounts{rpc: map[int32]int64{}} }

// count counts one completed request.
func (c *answerCounts) count(s *Sample) {
	c.completed++
	if s.Err != ErrNone {
		c.errs[s.Err]++
	} else {
		c.status.add(s.Status)
	}
	c.outcomes[s.Outcome]++
	c.calls.add(s)
	c.checks.add(s)
	c.bytesIn += int64(s.BytesIn)
}

// addRPC counts one JSON-RPC error code.
func (c *answerCounts) addRPC(code int32) { c.rpc[code]++ }

// reset empties the counts for reuse, keeping their storage.
func (c *answerCounts) reset() {
	rpc, status := c.rpc, c.status
	clear(rpc)
	status.reset()
	*c = answerCounts{rpc: rpc, status: status}
}

// callAcc counts JSON-RPC calls by outcome, and the faults of their answers.
type callAcc struct {
	outcomes [outcomeCount]int64
	faults   [faultCount]int64
}

func (c *callAcc) add(s *Sample) {
	if s.Calls == 0 {
		return
	}
	c.outcomes[OutcomeOK] += int64(s.CallsOK)
	c.outcomes[OutcomeLimited] += int64(s.CallsLimited)
	c.outcomes[OutcomeFailed] += int64(s.Calls) - int64(s.CallsOK) - int64(s.CallsLimited)
}

func (c *callAcc) addFault(f Fault, n uint32) {
	if f < faultCount {
		c.faults[f] += int64(n)
	}
}

// stats is the CallStats of the span; zero (left out of the JSON) when no call was sent.
func (c *callAcc) stats(sent int64) CallStats {
	cs := CallStats{Sent: sent, OK: c.outcomes[OutcomeOK], Limited: c.outcomes[OutcomeLimited], Failed: c.outcomes[OutcomeFailed]}
	for f, n := range c.faults {
		if n > 0 {
			if cs.Faults == nil {
				cs.Faults = map[string]int64{}
			}
			cs.Faults[Fault(f).String()] = n
		}
	}
	return cs
}
