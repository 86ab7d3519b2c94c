package engine

import (
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// second accumulates the requests that completed during one second of the run: the raw material
// of one timeline Row. Seconds are reused after they close, so a long run allocates none.
type second struct {
	t        int
	stage    int
	target   float64
	latest   int64 // the latest intended time among its samples, whose stage names the row
	dropMark int64 // the run's dropped total when the second was opened (about when it began)
	sentMark int64 // the run's sent total then
	costMark int64 // the run's cost sent then
	answerCounts
	// latency is packed: it takes what the second's answers fill (8 KiB for 5,000 answers
	// spread over 8 ms), not the 184 KiB of a dense histogram, for the same buckets and
	// percentiles (TestSecondHoldsWhatItCounted); a second records each answer once, so the
	// packed histogram's slower recording (30 ns, not 5) costs little.
	latency *hdr.PackedHistogram
}

func newSecond() *second {
	return &second{answerCounts: newAnswerCounts(), latency: hdr.NewPacked(histLowest, histHighest, histSigFigs)}
}

// reset readies a second for reuse as second t of stage at target rate.
func (s *second) reset(t, stage int, target float64) {
	lat, counts := s.latency, s.answerCounts
	lat.Reset()
	counts.reset()
	*s = second{t: t, stage: stage, target: target, answerCounts: counts, latency: lat}
}

func (s *second) add(smp *Sample) {
	if s.completed == 0 || smp.Intended >= s.latest {
		s.latest = smp.Intended
		s.stage = int(smp.Stage)
	}
	s.count(smp)
	recordNanos(s.latency, smp.Latency())
}

// row turns the second into its timeline Row. span is the length of the second that the run
// covered (a full second except the run's last, partial one), so rps stays a per-second rate.
// sent and costSent are the requests and the cost that went out during the second.
func (s *second) row(inflight, sent, dropped, costSent int64, span time.Duration) Row {
	rps, sentRate := perSecond(s.completed, span), perSecond(sent, span)
	return Row{
		T:          s.t,
		Stage:      s.stage,
		TargetRate: s.target,
		RPS:        rps,
		Status:     s.status.toMap(),
		Errors:     errMap(&s.errs),
		RPCErrors:  rpcMap(s.rpc),
		OK:         s.outcomes[OutcomeOK],
		Limited:    s.outcomes[OutcomeLimited],
		Failed:     s.outcomes[OutcomeFailed],
		Inflight:   inflight,
		Dropped:    dropped,
		Sent:       sentRate,
		Latency:    rowLatencyOf(s.latency),
		BytesIn:    s.bytesIn,

		CallsOK:      s.calls.outcomes[OutcomeOK],
		CallsLimited: s.calls.outcomes[OutcomeLimited],
		CallsFailed:  s.calls.outcomes[OutcomeFailed],
		Invalid:      s.checks.invalid,
		CostOffered:  perSecond(costSent, span),
		CostAccepted: perSecond(s.checks.costOK, span),
	}
}

// perSecond is n counted over span as a rate. A final sliver of a second (the drain) holds a
// few stragglers; scaling them to a rate would show a burst that never happened, so only a
// partial second of some length is scaled.
func perSecond(n int64, span time.Duration) float64 {
	if span >= time.Second/2 && span < time.Second {
		return roundMs(float64(n) / span.Seconds())
	}
	return float64(n)
}
