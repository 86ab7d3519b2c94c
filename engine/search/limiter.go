package search

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Limiter inference. A token bucket (nginx limit_req: rate r, burst b) accepts, from an empty
// bucket, b requests at once and then r per second; once the bucket is full, exactly r per
// second whatever is offered above r. So:
//
//   - the rate is the accepted rate (successful answers per second) of probes that were
//     rate-limited in steady state: their settle window already had rejections, so the bucket
//     was full for the whole measured window. Counting uncertainty: a request or two may cross
//     each window's edges (requests are filed by their intended send time, the limiter decides
//     on arrival), so ±2 per window over the windows' total time;
//   - if the accepted rate keeps growing with the offered rate, it is not a token bucket;
//   - the burst is what passes above the rate after the bucket has emptied: a burst probe waits
//     an idle gap (the bucket empties at r per second), then offers far more than r for a short
//     window W, and b = accepted − r×W, ± (2 + rate uncertainty × W). If the gap may have been
//     too short for the bucket to empty (b close to r × gap), only b ≥ … is claimed. Without a
//     burst probe, the doubling phase gives the same figure: from the first probe above r (the
//     bucket empty after probes below r) to the first one rejected in its measured window (the
//     bucket full), accepted − r × that wall time, with the rate's uncertainty times a longer
//     time, so this is precise only at low rates.

// tolerances of the plateau test.
const (
	// clearlyLimited: a probe whose rejected share is at least this (percent) is limited
	// beyond doubt.
	clearlyLimited = 1.0
	// plateauSpread: accepted rates within this fraction of the lowest are one plateau.
	plateauSpread = 0.05
	// notBucketRise: an accepted rate this much higher (beyond counting noise) at a clearly
	// higher offered rate means no plateau.
	notBucketRise = 0.15
)

// plateau is the accepted rate of the limited probes.
type plateau struct {
	rate, err float64
	used      int  // probes averaged
	steady    bool // from probes limited in their settle window too
	rising    string
}

// findPlateau estimates the limiter's rate from the probes, or returns rate 0.
func findPlateau(probes []engine.SearchProbe) plateau {
	var limited, steady []engine.SearchProbe
	for _, p := range probes {
		if p.Verdict == "stopped" || p.MeasureS <= 0 || p.Summary.Limited == 0 {
			continue
		}
		if p.LimitedPct < clearlyLimited || p.Goodput >= p.Rate*(1-clearlyLimited/100) {
			continue
		}
		limited = append(limited, p)
		if p.SettleS == 0 || p.SettleLimited > 0 {
			steady = append(steady, p)
		}
	}
	use, isSteady := steady, true
	if len(use) == 0 {
		use, isSteady = limited, false
	}
	if len(use) == 0 {
		return plateau{}
	}
	low := use[0]
	for _, p := range use {
		if p.Goodput < low.Goodput {
			low = p
		}
	}
	var ok, secs float64
	n := 0
	pl := plateau{steady: isSteady}
	for _, p := range use {
		noise := 2 / p.MeasureS
		if p.Goodput <= low.Goodput*(1+plateauSpread)+noise {
			ok += float64(p.Summary.OK)
			secs += p.MeasureS
			n++
			continue
		}
		// Accepting clearly more at a clearly higher offered rate: the accepted rate grows with
		// the load instead of levelling off.
		if p.Rate >= low.Rate*1.2 && p.Goodput > low.Goodput*(1+notBucketRise)+noise {
			pl.rising = fmt.Sprintf("the accepted rate grows with the offered rate (%s ok/s at %s, %s ok/s at %s)",
				fmtNum(low.Goodput), rateText(low.Rate), fmtNum(p.Goodput), rateText(p.Rate))
		}
	}
	pl.rate, pl.err, pl.used = ok/secs, 2*float64(n)/secs, n
	return pl
}

// levelledOff says, when no answer was rate-limited, whether a failing probe accepted clearly
// less than it offered: a limiter that queues instead of rejecting (nginx limit_req without
// nodelay, whose queue outlasts the request timeout or the probe) looks like that before it
// rejects anything, and so does an overloaded node. "" when no probe did.
func levelledOff(probes []engine.SearchProbe) string {
	var low *engine.SearchProbe
	for i := range probes {
		p := &probes[i]
		if p.Verdict != "fail" || p.MeasureS <= 0 || p.Goodput >= p.Rate*0.9-2/p.MeasureS {
			continue
		}
		if low == nil || p.Goodput < low.Goodput {
			low = p
		}
	}
	if low == nil {
		return ""
	}
	return fmt.Sprintf("but the accepted rate levelled off (%s ok/s at %s offered; the rest queued, timed out or failed): "+
		"a limiter that delays instead of rejecting (nginx limit_req without nodelay) looks like this until its queue is full, "+
		"as does an overloaded node; a latency clause (--p99) or longer probes tell them apart", fmtNum(low.Goodput), rateText(low.Rate))
}

// queueing says, when probes failed the backlog clause, at what rate the answers came back while
// more was sent: whatever queues the rest (nginx limit_req without nodelay delays requests
// instead of rejecting them; a node past its capacity does the same) serves that rate. Rejecting
// nothing, it cannot be told from a saturated node by the answers alone, so it is a note, not a
// limiter estimate. "" when no probe failed that way.
func queueing(probes []engine.SearchProbe) string {
	var rates []float64
	var window float64
	for _, p := range probes {
		if p.Verdict != "fail" || p.AnsweredPerS <= 0 {
			continue
		}
		for _, b := range p.Breaches {
			if b.Clause == "backlog" {
				rates = append(rates, p.AnsweredPerS)
				window = math.Max(window, p.MeasureS)
				break
			}
		}
	}
	if len(rates) == 0 {
		return ""
	}
	slices.Sort(rates)
	lo, hi, mid := rates[0], rates[len(rates)-1], rates[len(rates)/2]
	text := fmt.Sprintf("answers came back at %s while more was sent (%d probe(s) failed the backlog clause)", rateText(mid), len(rates))
	if len(rates) > 1 {
		at := fmtNum(lo) + "–" + rateText(hi)
		if fmtNum(lo) == fmtNum(hi) {
			at = rateText(mid)
		}
		text = fmt.Sprintf("answers came back at %s whatever was sent above it (%d probes failed the backlog clause)", at, len(rates))
	}
	text += ": something queues the rest at that rate — a limiter that delays instead of rejecting, " +
		"like nginx limit_req"
	// Counting noise is ± 2 answers per measured window, as for the token bucket's rate.
	if noise := 2 / window; window > 0 && hi-lo <= math.Max(0.1*mid, 2*noise) {
		// The answers agree within a tenth or the noise: name the nginx rate that would do this.
		text += " rate=" + nginxRateText(mid, math.Max((hi-lo)/2, noise))
	}
	return text + " without nodelay, or the node's own capacity"
}

// burstFromRamp is the burst as the doubling phase shows it (see the package comment above),
// or ok false when the probes do not allow it.
func burstFromRamp(probes []engine.SearchProbe, rate, rateErr float64) (burst, err float64, ok bool) {
	first := -1
	for i, p := range probes {
		if p.Rate > rate*1.02 {
			first = i
			break
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	for _, p := range probes[:first] {
		if p.Summary.Limited+p.SettleLimited > 0 || p.Prefill > 0 {
			return 0, 0, false // the bucket was not empty: a probe below the rate was limited
		}
	}
	var accepted float64
	for i := first; i < len(probes); i++ {
		p := probes[i]
		if p.Verdict == "stopped" || p.Rate <= rate*1.02 || p.Prefill > 0 {
			return 0, 0, false // the run above the rate was broken before the bucket filled
		}
		accepted += float64(p.SettleOK + p.Summary.OK)
		if p.Summary.Limited > 0 {
			wall := p.StartS + p.SettleS + p.MeasureS - probes[first].StartS
			n := float64(i - first + 1)
			return accepted - rate*wall, rateErr*wall + 2*n, true
		}
	}
	return 0, 0, false
}

// prefillFor sizes a probe's prefill (see ProbeSpec): nothing until a probe was limited; then
// twice the burst the probes suggest (or a second of the limiter's rate when they do not tell),
// sent at twenty times the accepted rate (at least twice the probe's), so that it takes little
// time and leaves the bucket full.
func prefillFor(probes []engine.SearchProbe, rate float64) (int, engine.Rate) {
	pl := findPlateau(probes)
	if pl.rate == 0 || pl.rising != "" {
		return 0, 0
	}
	guess := pl.rate
	if b, err, ok := burstFromRamp(probes, pl.rate, pl.err); ok {
		guess = math.Max(b+err, pl.rate*0.25)
	}
	n := int(math.Ceil(2*math.Max(guess, 5))) + 10
	r := math.Min(math.Max(20*pl.rate, 2*rate), 20000)
	return n, engine.Rate(roundSig(r, 3))
}

// prefillTime is how long a probe's prefill lasts.
func prefillTime(spec ProbeSpec) time.Duration {
	if spec.Prefill <= 0 || spec.PrefillRate <= 0 {
		return 0
	}
	return time.Duration(float64(spec.Prefill) / float64(spec.PrefillRate) * float64(time.Second))
}

// burstPlan is the burst probe's shape.
type burstPlan struct {
	gap, window time.Duration
	rate        float64
}

// planBurst sizes the burst probe for a limiter of rate (±rateErr) whose burst is thought to
// be about guess: a gap long enough for such a bucket to empty, with room to spare, and a burst
// ten times the rate (within the search's maximum, at least twice the rate) long enough to
// exhaust twice the guess.
func planBurst(rate, guess float64, max engine.Rate) burstPlan {
	guess = math.Max(guess, math.Max(rate*0.5, 10))
	gap := time.Duration(math.Max(1, 1.25*guess/rate) * float64(time.Second))
	// Ten times the rate, at most 5000/s beyond five times it (a fast limiter's burst probe need
	// not strain the tester), within the search's maximum (but at least twice the rate).
	r := math.Min(10*rate, math.Max(5*rate, 2000))
	r = math.Min(math.Min(r, math.Max(float64(max), 2*rate)), 20000)
	r = roundSig(r, 3)
	w := 2 * guess / (r - rate)
	w = math.Max(w, math.Max(0.2, 20/r))
	w = math.Min(w, 5)
	w = math.Ceil(w*100) / 100 // whole 10 ms, rounded up so the window still exhausts the guess
	return burstPlan{gap: gap.Round(100 * time.Millisecond), window: time.Duration(w * float64(time.Second)), rate: r}
}

// inferLimiter estimates the limiter from the probes, running the burst probe when any probe
// was rate-limited and the budget allows.
func (s *Searcher) inferLimiter(ctx context.Context, probes []engine.SearchProbe, measures []Measure, started time.Time) (*engine.LimiterEstimate, *Measure) {
	anyLimited := false
	for _, p := range probes {
		if p.Summary.Limited+p.SettleLimited > 0 {
			anyLimited = true
		}
	}
	if !anyLimited {
		top := 0.0
		for _, p := range probes {
			top = math.Max(top, p.Rate)
		}
		if len(probes) == 0 {
			return nil, nil
		}
		est := &engine.LimiterEstimate{Kind: "none", Notes: []string{fmt.Sprintf("no limiter detected: no rate-limited answer at any probe, up to %s", rateText(top))}}
		if n := levelledOff(probes); n != "" {
			est.Notes = append(est.Notes, n)
		}
		if n := queueing(probes); n != "" {
			est.Notes = append(est.Notes, n)
		}
		return est, nil
	}
	pl := findPlateau(probes)
	if pl.rate == 0 {
		return &engine.LimiterEstimate{Kind: "token bucket?", Notes: []string{"some answers were rate-limited, but too few to tell the limiter's rate (no probe was rejected 1% or more while accepting clearly less than it offered)"}}, nil
	}
	est := &engine.LimiterEstimate{Kind: "token bucket", Rate: round3(pl.rate), RateErr: round3(pl.err)}
	est.Notes = append(est.Notes, fmt.Sprintf("rate: %s ok/s accepted over %d rate-limited probe(s), ± 2 requests per measured window", fmtNum(pl.rate), pl.used))
	if !pl.steady {
		est.Notes = append(est.Notes, "no probe was limited in its settle window already, so the bucket may have been filling during the measured window: the rate may be overestimated (use a longer settle)")
	}
	switch {
	case pl.rising != "":
		est.Kind = "not a token bucket"
		est.Notes = append(est.Notes, pl.rising+": not a token bucket (a limiter that rejects a share, or an overloaded node)")
	case pl.used < 2:
		est.Notes = append(est.Notes, "only one probe was limited: whether the accepted rate levels off was not checked")
	}
	if est.Kind != "token bucket" {
		return est, nil // no bucket: no burst to speak of
	}
	ramp, rampErr, rampOK := burstFromRamp(probes, pl.rate, pl.err)
	if rampOK {
		est.Burst, est.BurstErr, est.BurstFrom = round3(math.Max(ramp, 0)), round3(rampErr), "sustained probes"
	}
	var burst *Measure
	if !s.cfg.NoBurstProbe {
		guess := 0.0
		if rampOK {
			guess = ramp + rampErr
		}
		plan := planBurst(pl.rate, guess, s.cfg.Max)
		left := s.cfg.Budget - s.since(started)
		switch {
		case s.isStopped(ctx):
		case plan.gap+plan.window > left:
			est.Notes = append(est.Notes, fmt.Sprintf("no burst probe: it needs %s (an idle gap of %s, then %s) and the budget has %s left", plan.gap+plan.window, plan.gap, plan.window, left.Round(100*time.Millisecond)))
		default:
			burst = s.runBurst(ctx, plan, probes)
		}
		if burst != nil && !burst.Stopped {
			s.burstEstimate(est, burst, plan, pl, probes)
		}
	}
	if est.Burst > 0 || est.BurstFrom != "" {
		est.Nginx = nginxText(est)
	}
	if est.BurstFrom == "sustained probes" {
		est.Notes = append(est.Notes, fmt.Sprintf("burst: from the doubling phase, accepted above the rate until the first rejections: %s ± %s", oneDec(est.Burst), oneDec(est.BurstErr)))
	}
	return est, burst
}

// runBurst runs the burst probe, showing it as the current probe.
func (s *Searcher) runBurst(ctx context.Context, plan burstPlan, probes []engine.SearchProbe) *Measure {
	pctx, ok := s.probeCtx(ctx)
	if !ok {
		return nil
	}
	defer s.endProbe()
	s.publish(probes, &Current{N: len(probes) + 1, Rate: plan.rate, Step: "burst", Phase: "burst", Started: s.now(), Settle: plan.gap, Measure: plan.window}, s.start)
	m, err := s.prober.Burst(pctx, plan.gap, engine.Rate(plan.rate), plan.window)
	if err != nil {
		return nil
	}
	m.Rate = engine.Rate(plan.rate)
	if s.isStopped(ctx) {
		m.Stopped = true
	}
	return &m
}

// burstEstimate reads the burst probe into est.
func (s *Searcher) burstEstimate(est *engine.LimiterEstimate, m *Measure, plan burstPlan, pl plateau, probes []engine.SearchProbe) {
	w := m.Seconds
	sum := &m.Summary
	b := float64(sum.OK) - pl.rate*w
	// The burst's first requests wait for new connections (the probe's runner starts cold), so
	// they reach the limiter a little after their intended time: the window the limiter sees
	// is shorter by that, and fewer pass. The tester's own wait (latency from the intended
	// send − service time from the actual send) bounds it; it widens the uncertainty.
	lag := math.Max(sum.Latency.Mean-sum.Service.Mean, 0) / 1000
	// A tester that fell behind (a busy machine, a race-detector build) sent the window's last
	// requests late, or a slow node reached them late: the limiter decided over a longer window
	// than planned and refilled during it, so up to rate × that stretch more passed. The mean
	// wait above understates it; the largest send lag, and the slowest rejection (a limiter
	// rejects as it decides, delaying or not), bound it.
	lag = math.Max(lag, sum.SendLag.Max/1000)
	if lim, ok := sum.LatencyByOutcome["limited"]; ok {
		lag = math.Max(lag, lim.Max/1000)
	}
	errB := 2 + pl.err*w + pl.rate*lag
	bp := &engine.BurstProbe{GapS: plan.gap.Seconds(), Rate: plan.rate, WindowS: round3(w), Sent: sum.Sent,
		OK: sum.OK, Limited: sum.Limited, Failed: sum.Failed, OKLatency: sum.LatencyByOutcome["ok"]}
	est.BurstProbe = bp
	est.Burst, est.BurstErr, est.BurstFrom, est.BurstAtLeast = round3(math.Max(b, 0)), round3(errB), "burst probe", false
	note := fmt.Sprintf("burst: after an idle gap of %s, %d of %d requests at %s passed in %s; minus the rate × the window = %s ± %s",
		plan.gap, sum.OK, sum.Sent, rateText(plan.rate), formatSecs(w), oneDec(b), oneDec(errB))
	if lag > 0.1*w {
		note += fmt.Sprintf("; requests reached the limiter up to %s late (a busy tester or node), which widens the uncertainty", formatSecs(lag))
	}
	switch {
	case sum.Limited == 0:
		est.BurstAtLeast = true
		note += "; no request was rejected, so the bucket never ran out: the burst is at least that"
	case b >= 0.9*pl.rate*plan.gap.Seconds():
		est.BurstAtLeast = true
		note += fmt.Sprintf("; that is about all the %s gap lets drain, so the bucket may not have emptied: the burst is at least that (a longer --budget allows a longer gap)", plan.gap)
	}
	est.Notes = append(est.Notes, note)
	est.Delay = delayMode(m, b, pl.rate)
}

// delayMode tells a limiter that queues its burst (nginx's default: accepted requests wait
// until the rate allows them, up to burst/rate) from one that answers it at once (nodelay), by
// the burst's accepted answers against its rejected ones: both left the tester at the same
// time, so a tester that fell behind delays them alike, but only a queueing limiter holds the
// accepted ones. "" when the wait it would add is too small to tell, or nothing was rejected.
func delayMode(m *Measure, burst, rate float64) string {
	wait := burst / rate * 1000 // ms a queued request waits at most
	ok, hasOK := m.Summary.LatencyByOutcome["ok"]
	lim, hasLim := m.Summary.LatencyByOutcome["limited"]
	if wait < 10 || !hasOK || !hasLim {
		return ""
	}
	if ok.P50-lim.P50 > math.Max(5, wait/4) {
		return "delay"
	}
	return "nodelay"
}

// nginxText is the estimate as nginx's limit_req: rate=1000r/s burst=60 nodelay. Each figure
// is the roundest number within a fifth of its uncertainty (3.89 ± 0.67/s reads 240r/m, not
// 233r/m): more digits would claim a precision the counts do not have.
func nginxText(est *engine.LimiterEstimate) string {
	t := fmt.Sprintf("rate=%s burst=%s", nginxRateText(est.Rate, est.RateErr), roundest(est.Burst, est.BurstErr/5))
	if est.Delay == "nodelay" {
		t += " nodelay"
	}
	return t
}

// nginxRateText is a rate as limit_req writes it, r/m below 10/s, rounded to a fifth of err.
func nginxRateText(rate, err float64) string {
	if rate < 10 {
		return roundest(rate*60, err*60/5) + "r/m"
	}
	return roundest(rate, err/5) + "r/s"
}

// roundest is v rounded to the coarsest step (1, 2 or 5 × a power of ten, at least 1) that
// stays within tol of it, as a whole number.
func roundest(v, tol float64) string {
	best := math.Round(v)
	for step := 1.0; step <= math.Abs(v); step *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if r := math.Round(v/(step*m)) * step * m; math.Abs(r-v) <= tol && r > 0 {
				best = r
			}
		}
	}
	return strconv.FormatFloat(best, 'f', 0, 64)
}

// rateText writes a rate per second: "1050/s", "4.2/s".
func rateText(r float64) string { return fmtNum(r) + "/s" }

func formatSecs(s float64) string { return fmtNum(s) + " s" }

// oneDec writes v with one decimal.
func oneDec(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
