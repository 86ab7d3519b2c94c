package search

import "math"

// Steps of the strategy, recorded with each probe.
const (
	stepDouble   = "double"   // climbing from the start, ×2 a probe
	stepDown     = "down"     // the start failed: halving
	stepBisect   = "bisect"   // the midpoint of [good, bad]
	stepEstimate = "estimate" // just under the rate a limiter accepted
	stepClose    = "close"    // one precision step above good, to close the bracket
	stepConfirm  = "confirm"  // good again: a limiter's accepted rate says it cannot hold
	stepRecheck  = "recheck"  // a lone failure again: a load spike must not decide the search
)

// Reasons a search ends (engine.SearchResult.EndReason).
const (
	EndConverged = "converged"
	EndBudget    = "budget"
	EndMax       = "max"
	EndNeverMet  = "never_met"
	EndStopped   = "stopped"
	EndProbes    = "probes"
)

// downFloor is how far below the start the search halves before it gives up: start/16.
const downFloor = 16

// sameRate is the relative distance under which two rates count as the same probe.
const sameRate = 0.005

// result is one judged probe as the strategy sees it.
type result struct {
	rate float64
	pass bool
	// okRate is the accepted rate (successful answers per second); limited is set when the
	// probe failed with rate-limited answers while accepting clearly less than it offered:
	// okRate is then what a limiter lets through.
	okRate     float64
	limited    bool
	step       string
	superseded bool
}

// strategy decides the next rate from the probes so far. It is pure: no clock, no I/O; the
// search loop adds the budget. Doubling finds a bracket [good, bad]; bisection narrows it to
// the precision. Two refinements for rate limiters:
//
//   - A probe that failed with rate-limited answers tells the limiter's rate: the accepted
//     rate a (successful answers per second). The SLO's limited share crosses its bound m at
//     about a/(1−m), so the next probe goes just under that estimate, then one precision step
//     above the good rate to close the bracket, instead of halving the gap several times.
//   - A limiter with a large burst absorbs a short probe above its rate (no 429s yet), which
//     then passes though the rate cannot be held. So when the accepted rate of a limited probe
//     is below a passing rate, that rate is probed again ("confirm"), and in general the latest
//     probe wins: a fail supersedes earlier passes at or above its rate, a pass earlier fails at
//     or below it. (The same rule absorbs noisy probes near the limit.)
//
// And one for noise: a lone failure between passing probes is run again once before it sets
// the bound (see loneFailure).
type strategy struct {
	start, max    float64
	precision     float64 // a fraction: 0.05
	maxLimited    float64 // a fraction: the SLO's limited share
	results       []result
	confirmedRate []float64
}

func newStrategy(c Config) *strategy {
	return &strategy{start: float64(c.Start), max: float64(c.Max), precision: c.PrecisionPct / 100, maxLimited: c.SLO.MaxLimitedPct / 100}
}

// add records a judged probe and supersedes the earlier ones it contradicts.
func (s *strategy) add(r result) {
	for i := range s.results {
		old := &s.results[i]
		if old.superseded || old.pass == r.pass {
			continue
		}
		if (r.pass && old.rate <= r.rate) || (!r.pass && old.rate >= r.rate) {
			old.superseded = true
		}
	}
	if r.step == stepConfirm {
		s.confirmedRate = append(s.confirmedRate, r.rate)
	}
	s.results = append(s.results, r)
}

// bounds are the highest passing and the lowest failing rate among the probes still trusted;
// zero when there is none. By the superseding rule every trusted pass is below every trusted
// fail.
func (s *strategy) bounds() (good, bad float64) {
	for _, r := range s.results {
		switch {
		case r.superseded:
		case r.pass && r.rate > good:
			good = r.rate
		case !r.pass && (bad == 0 || r.rate < bad):
			bad = r.rate
		}
	}
	return good, bad
}

// estimate is the rate at which a limiter's rejections would reach the SLO's bound: the lowest
// accepted rate of a limited probe, a, over 1 − the bound. Zero when no probe was limited.
func (s *strategy) estimate() float64 {
	a := 0.0
	for _, r := range s.results {
		if r.limited && !r.superseded && (a == 0 || r.okRate < a) {
			a = r.okRate
		}
	}
	if a == 0 {
		return 0
	}
	return a / (1 - math.Min(s.maxLimited, 0.5))
}

// next is the rate to probe next and the step that chose it, or done with the reason. Rates
// are rounded to a few significant digits (enough for the precision), so they read well.
func (s *strategy) next() (rate float64, step string, done bool, reason string) {
	rate, step, done, reason = s.choose()
	if !done {
		rate = roundSig(rate, s.digits())
	}
	return rate, step, done, reason
}

// digits is how many significant digits a probed rate keeps: 3 for a precision of 2 % or
// more, one more for each tenfold finer precision.
func (s *strategy) digits() int {
	if s.precision >= 0.02 {
		return 3
	}
	return 3 + int(math.Ceil(math.Log10(0.02/s.precision)))
}

// roundSig rounds v to n significant digits.
func roundSig(v float64, n int) float64 {
	if v <= 0 {
		return v
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(v)))
	return math.Round(v*p) / p
}

func (s *strategy) choose() (rate float64, step string, done bool, reason string) {
	if len(s.results) == 0 {
		return s.start, stepDouble, false, ""
	}
	if r, ok := s.loneFailure(); ok {
		return r, stepRecheck, false, ""
	}
	good, bad := s.bounds()
	est := s.estimate()
	switch {
	case bad == 0: // everything passed so far: climb
		if good >= s.max*(1-sameRate) {
			return 0, "", true, EndMax
		}
		return math.Min(good*2, s.max), stepDouble, false, ""
	case good == 0: // everything failed so far: descend
		if c := est * (1 - s.precision/2); est > 0 && c < bad*(1-sameRate) && !s.probed(c) {
			return c, stepEstimate, false, ""
		}
		if c := bad / 2; c >= s.start/downFloor*(1-sameRate) {
			return c, stepDown, false, ""
		}
		return 0, "", true, EndNeverMet
	case (bad-good)/good <= s.precision*(1+1e-9):
		return 0, "", true, EndConverged
	}
	if est > 0 {
		// A pass clearly above what the limiter accepts cannot hold in steady state: probe it
		// again (with the bucket filled first, see ProbeSpec.Prefill).
		if good > est*(1+s.precision/4) && !s.confirmed(good) {
			return good, stepConfirm, false, ""
		}
		if est > good && est < bad {
			c, st := est*(1-s.precision/2), stepEstimate
			if (est-good)/good <= s.precision {
				c, st = good*(1+s.precision), stepClose
			}
			if c > good*(1+sameRate) && c < bad*(1-sameRate) && !s.probed(c) {
				return c, st, false, ""
			}
		}
	}
	return (good + bad) / 2, stepBisect, false, ""
}

// loneFailure is the rate of the latest probe when it must be run again before it decides: it
// failed, it is the only trusted failure, a trusted probe below it passed (it stands alone
// between passing ones), and it was not rate-limited. Such a failure may be a load spike on a
// busy machine (the tester's or the node's), and as the only failure it would set the upper
// bound for the rest of the search: a spike at 800/s ended a knee search at 775/s instead of
// 1500/s. Run once more, a pass supersedes it (the latest wins); a second failure confirms it.
// A rate-limited failure is not rechecked: a limiter's verdict is no accident, and its accepted
// rate steers the search instead.
func (s *strategy) loneFailure() (float64, bool) {
	last := s.results[len(s.results)-1]
	if last.pass || last.superseded || last.limited || last.step == stepRecheck || last.step == stepConfirm {
		return 0, false
	}
	good, _ := s.bounds()
	if good <= 0 || good >= last.rate {
		return 0, false
	}
	for _, r := range s.results[:len(s.results)-1] {
		if !r.superseded && !r.pass {
			return 0, false // another failure agrees
		}
	}
	return last.rate, true
}

// probed reports whether a trusted probe ran at about rate already.
func (s *strategy) probed(rate float64) bool {
	for _, r := range s.results {
		if !r.superseded && math.Abs(r.rate-rate) <= sameRate*rate {
			return true
		}
	}
	return false
}

func (s *strategy) confirmed(rate float64) bool {
	for _, c := range s.confirmedRate {
		if math.Abs(c-rate) <= sameRate*rate {
			return true
		}
	}
	return false
}
