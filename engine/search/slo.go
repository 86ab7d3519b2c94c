package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// Measure is what one probe measured: the measured window's summary and what the limiter
// inference needs of the settle window.
type Measure struct {
	Rate engine.Rate
	// Seconds is the measured window's length: as planned, or as far as it got when stopped.
	Seconds float64
	Summary engine.Summary
	// SaturatedSeconds counts measured seconds in which the generator fell behind.
	SaturatedSeconds int
	// SettleOK and SettleLimited count the settle window's outcomes; SettleSeconds its length.
	SettleOK, SettleLimited int64
	SettleSeconds           float64
	// Stopped is set when the probe was cut short; it is then not judged.
	Stopped bool
	// Answered counts the answers of any outcome that came back during the measured window's
	// whole seconds, AnsweredSeconds how many such seconds there were: against the sent rate,
	// they show whether the node keeps up or a queue is building.
	Answered        int64
	AnsweredSeconds int
	// Snapshot is the probe's own run, when an engine.Runner made it (nil for fakes).
	Snapshot *engine.Snapshot
}

// Goodput is successful answers per second in the measured window.
func (m *Measure) Goodput() float64 {
	if m.Seconds <= 0 {
		return 0
	}
	return float64(m.Summary.OK) / m.Seconds
}

// share is n as a percentage of the completed answers.
func (m *Measure) share(n int64) float64 {
	if m.Summary.Completed <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(m.Summary.Completed)
}

// Judge holds a probe against the SLO and returns every clause it missed (none: it passed).
// Requests still unanswered when the probe ended count as failed: a node that never answers
// must not pass. Dropped requests and a saturated generator fail a probe too, as clause
// "tester": the rate was not really offered, so the probe says nothing about the node.
func (s SLO) Judge(m *Measure) []engine.SearchBreach {
	sum := &m.Summary
	var out []engine.SearchBreach
	add := func(clause string, measured, bound float64, unit, text string) {
		out = append(out, engine.SearchBreach{Clause: clause, Measured: round3(measured), Bound: bound, Unit: unit, Text: text})
	}
	answered := sum.Completed + sum.Inflight
	if answered == 0 {
		add("failed", 100, s.MaxFailedPct, "%", "no answers at all")
		return out
	}
	if s.Latency > 0 && sum.Completed > 0 {
		name, _ := PercentileName(s.Percentile)
		if v := latencyAt(sum.Latency, s.Percentile); v > ms(s.Latency) {
			add(name, v, ms(s.Latency), "ms", fmt.Sprintf("%s %s ms > %s ms", name, fmtNum(v), fmtNum(ms(s.Latency))))
		}
	}
	if v := m.share(sum.Limited); v > s.MaxLimitedPct {
		add("limited", v, s.MaxLimitedPct, "%", fmt.Sprintf("limited %s > %s", pct(round3(v)), pct(s.MaxLimitedPct)))
	}
	failed := 100 * float64(sum.Failed+sum.Inflight) / float64(answered)
	if failed > s.MaxFailedPct {
		text := fmt.Sprintf("failed %s > %s", pct(round3(failed)), pct(s.MaxFailedPct))
		if sum.Inflight > 0 {
			text += fmt.Sprintf(" (%d never answered)", sum.Inflight)
		}
		add("failed", failed, s.MaxFailedPct, "%", text)
	}
	if s.MinSuccessPct > 0 {
		if v := m.share(sum.OK); v < s.MinSuccessPct {
			add("success", v, s.MinSuccessPct, "%", fmt.Sprintf("success %s < %s", pct(round3(v)), pct(s.MinSuccessPct)))
		}
	}
	if b, ok := m.backlog(); ok {
		out = append(out, b)
	}
	if sum.Dropped > 0 {
		add("tester", float64(sum.Dropped), 0, "count", fmt.Sprintf("tester: dropped %d requests it could not send (every connection busy)", sum.Dropped))
	}
	// One saturated second can be the scheduler catching a GC pause (one late wake marks a whole
	// second); more than one, and more than a quarter of the window, is a generator that cannot
	// keep the rate.
	if m.SaturatedSeconds > 1 && float64(m.SaturatedSeconds) > m.Seconds/4 {
		add("tester", float64(m.SaturatedSeconds), m.Seconds/4, "s", fmt.Sprintf("tester: saturated for %d of %s s (the generator fell behind its schedule)", m.SaturatedSeconds, fmtNum(m.Seconds)))
	}
	return out
}

// answeredRate is answers per second during the window's whole seconds; 0 when none were whole.
func (m *Measure) answeredRate() float64 {
	if m.AnsweredSeconds <= 0 {
		return 0
	}
	return round3(float64(m.Answered) / float64(m.AnsweredSeconds))
}

// Keeping up: a probe fails when the node answered, during the window's whole seconds, less
// than keepUpShare of what was sent in that time, by more than keepUpSlack requests (a request
// landing in the next second is counting noise, not a queue).
const (
	keepUpShare = 0.97
	keepUpSlack = 2
)

// backlog is the "backlog" clause: a node that answers more slowly than it is asked does not
// sustain the rate even while nothing fails yet. The difference is a queue building up, as
// behind nginx limit_req without nodelay (it delays instead of rejecting until its burst queue
// is full) or in front of a saturated node; its requests fail only once the queue is full or
// they time out, which may be after the probe has ended. Answers of every outcome count, so a
// limiter that rejects at once (429s) never trips it.
func (m *Measure) backlog() (engine.SearchBreach, bool) {
	if m.AnsweredSeconds < 2 || m.Seconds <= 0 || m.Summary.Sent <= 0 {
		return engine.SearchBreach{}, false
	}
	secs := float64(m.AnsweredSeconds)
	sentRate := float64(m.Summary.Sent) / m.Seconds
	want, got := sentRate*secs, float64(m.Answered)
	if got >= want*keepUpShare-keepUpSlack {
		return engine.SearchBreach{}, false
	}
	return engine.SearchBreach{Clause: "backlog", Measured: round3(100 * got / want), Bound: 100 * keepUpShare, Unit: "%",
		Text: fmt.Sprintf("backlog: answered %s/s of %s/s sent (a queue is building)", fmtNum(got/secs), fmtNum(sentRate))}, true
}

// record turns a judged measure into the snapshot's probe record.
func (s SLO) record(n int, step string, startS float64, settle float64, m *Measure, breaches []engine.SearchBreach) engine.SearchProbe {
	verdict := "pass"
	switch {
	case m.Stopped:
		verdict, breaches = "stopped", nil
	case len(breaches) > 0:
		verdict = "fail"
	}
	p := engine.SearchProbe{
		N: n, Step: step, Rate: round3(float64(m.Rate)), StartS: round3(startS), SettleS: round3(settle), MeasureS: round3(m.Seconds),
		Verdict: verdict, Breaches: breaches, Goodput: round3(m.Goodput()),
		LatencyMs:  latencyAt(m.Summary.Latency, s.percentileOrDefault()),
		OKPct:      round3(m.share(m.Summary.OK)),
		LimitedPct: round3(m.share(m.Summary.Limited)),
		FailedPct:  round3(m.share(m.Summary.Failed)),
		SaturatedS: m.SaturatedSeconds, SettleOK: m.SettleOK, SettleLimited: m.SettleLimited,
		AnsweredPerS: m.answeredRate(),
		Summary:      m.Summary,
	}
	return p
}

// percentileOrDefault is the SLO's percentile, p99 when it has no latency clause (the probe
// table still shows a latency).
func (s SLO) percentileOrDefault() float64 {
	if _, ok := PercentileName(s.Percentile); ok && s.Percentile > 0 {
		return s.Percentile
	}
	return DefaultPercentile
}

// testerOnly reports whether breaches are all tester clauses (and there is one): the probe
// failed only because the tester could not keep up, so it says nothing about the node. A probe
// that also missed a node clause (rate-limited, failed, latency) did find the node's limit.
func testerOnly(breaches []engine.SearchBreach) bool {
	for _, b := range breaches {
		if b.Clause != "tester" {
			return false
		}
	}
	return len(breaches) > 0
}

func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 3, 64), 64)
	return r
}

// fmtNum writes a number for people: one decimal from 100 up, three significant decimals
// below, no trailing zeros ("1050", "14.5", "0.412").
func fmtNum(v float64) string {
	dec := 3
	switch a := math.Abs(v); {
	case a >= 100:
		dec = 1
	case a >= 10:
		dec = 2
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
