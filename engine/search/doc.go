// Package search finds the highest rate a node sustains within an SLO (`rpcstress find-limit`).
//
// It drives engine.Runner from outside, one Runner per probe. A probe holds one rate: a settle
// window that is not counted (connections warm up, a limiter's bucket fills), then a measured
// window with its own histogram, judged against the SLO (latency percentile, rate-limited and
// failed shares, an optional success floor, and the tester's own health: a saturated generator
// or dropped requests fail a probe too, and the answer then says the limit is the tester's).
//
// The strategy (strategy.go) is pure and tested against oracles: it doubles the rate from the
// start until the SLO breaks, then bisects between the last good and the first bad rate until
// they are within the precision, or the time budget runs out. Two refinements make it fit for
// rate limiters: a failing probe with rate-limited answers tells the accepted rate (the
// limiter's rate), which is probed next instead of the midpoint; and a pass above a later fail
// (a burst bucket that absorbed a short probe) is re-checked and superseded, latest wins.
//
// After the search, limiter.go infers a token bucket's rate and burst from the sustained probes
// and a short burst probe after an idle gap, with the uncertainty the counts allow.
package search
