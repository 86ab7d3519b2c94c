package engine

// The find-limit search (package engine/search) drives Runners from outside; these are the
// records it leaves in a snapshot's "search" section. They are data only, kept here so that a
// Snapshot can hold them and every reader of snapshots (report, compare, merge) can see them.
// Rates are per second, latencies in milliseconds, shares in percent, times in seconds.

// SearchResult is the search section of a find-limit snapshot.
type SearchResult struct {
	Settings SearchSettings `json:"settings"`
	SLO      SearchSLO      `json:"slo"`
	// Probes are every sustained probe, in the order they ran.
	Probes []SearchProbe `json:"probes"`
	Answer SearchAnswer  `json:"answer"`
	// Limiter is what the probes say about a token-bucket limiter in front of the node.
	Limiter *LimiterEstimate `json:"limiter,omitempty"`
	// EndReason says why the search stopped: converged, budget, max (never broke up to the
	// maximum rate), never_met (not even the lowest rate tried met the SLO), stopped (by the
	// user or a signal), probes (the probe count limit).
	EndReason string `json:"end_reason"`
	// ElapsedS is the search's wall time, burst probe included.
	ElapsedS float64 `json:"elapsed_s"`
}

// SearchSettings are the strategy's knobs as the search ran with them.
type SearchSettings struct {
	StartRate float64 `json:"start_rate"`
	MaxRate   float64 `json:"max_rate"`
	// PrecisionPct: the search stops when (first bad − last good) / last good ≤ this.
	PrecisionPct float64 `json:"precision_pct"`
	ProbeS       float64 `json:"probe_s"`  // measured window of each probe
	SettleS      float64 `json:"settle_s"` // not counted, before each measured window
	BudgetS      float64 `json:"budget_s"`
}

// SearchSLO is what a probe must meet to pass. A zero LatencyMs or MinSuccessPct means no
// such clause.
type SearchSLO struct {
	// Percentile of the latency of all answers (from the intended send), e.g. 99.
	Percentile    float64 `json:"percentile,omitempty"`
	LatencyMs     float64 `json:"latency_ms,omitempty"`
	MaxLimitedPct float64 `json:"max_limited_pct"`
	MaxFailedPct  float64 `json:"max_failed_pct"`
	MinSuccessPct float64 `json:"min_success_pct,omitempty"`
}

// SearchBreach is one SLO clause a probe missed: what was measured against which bound.
type SearchBreach struct {
	// Clause is p99 (or the SLO's percentile), limited, failed, success or tester.
	Clause   string  `json:"clause"`
	Measured float64 `json:"measured"`
	Bound    float64 `json:"bound"`
	Unit     string  `json:"unit"` // ms, %, s (saturated seconds) or count (dropped)
	// Text says it for people: "limited 4.8% > 1%".
	Text string `json:"text"`
}

// SearchProbe is one sustained probe: a settle window (not counted), then a measured window at
// the same rate, with its own histogram (the snapshot stage of the same number).
type SearchProbe struct {
	N    int     `json:"n"`    // 1-based, in the order run
	Step string  `json:"step"` // double, down, bisect, estimate, close, confirm
	Rate float64 `json:"rate"`
	// StartS is when the probe began (its settle), in seconds since the search began.
	StartS   float64 `json:"start_s"`
	SettleS  float64 `json:"settle_s"`
	MeasureS float64 `json:"measure_s"`
	// Verdict is pass, fail or stopped (cut short: not judged).
	Verdict  string         `json:"verdict"`
	Breaches []SearchBreach `json:"breaches,omitempty"`
	// Superseded is set when a later probe contradicted this one (a pass above a later fail or
	// the reverse); the search then trusts the later one.
	Superseded bool `json:"superseded,omitempty"`
	// Goodput is successful answers per second in the measured window.
	Goodput float64 `json:"goodput"`
	// AnsweredPerS is answers of any outcome per second that came back during the measured
	// window's whole seconds: below the sent rate, a queue was building (the backlog clause).
	AnsweredPerS float64 `json:"answered_per_s,omitempty"`
	LatencyMs    float64 `json:"latency_ms"` // the SLO's percentile (p99 by default), all answers
	OKPct        float64 `json:"ok_pct"`
	LimitedPct   float64 `json:"limited_pct"`
	FailedPct    float64 `json:"failed_pct"`
	// SaturatedS counts measured seconds in which the generator fell behind its schedule.
	SaturatedS int `json:"saturated_s,omitempty"`
	// Settle counts the settle window's outcomes (for the limiter's burst estimate).
	SettleOK      int64 `json:"settle_ok"`
	SettleLimited int64 `json:"settle_limited"`
	// Prefill requests were sent at PrefillRate before the settle window, to fill a limiter's
	// bucket (once one has shown itself), so the probe sees it in steady state.
	Prefill     int     `json:"prefill,omitempty"`
	PrefillRate float64 `json:"prefill_rate,omitempty"`
	// Summary is the measured window's full summary.
	Summary Summary `json:"summary"`
}

// SearchAnswer is the result: the highest rate that met the SLO and the first that did not.
type SearchAnswer struct {
	// Found is false when no probe met the SLO.
	Found bool `json:"found"`
	// Rate is the highest rate that met the SLO; Goodput its successful answers per second.
	Rate    float64 `json:"rate"`
	Goodput float64 `json:"goodput"`
	// FirstBad is the lowest rate that did not (0 when none failed); Breaches say why.
	FirstBad float64        `json:"first_bad,omitempty"`
	Breaches []SearchBreach `json:"breaches,omitempty"`
	// TesterLimited is set when the first bad rate failed only because of the tester itself
	// (saturated or dropped requests): then the limit found is the tester's, not the node's.
	TesterLimited bool `json:"tester_limited,omitempty"`
	// GapPct is (FirstBad − Rate) / Rate: how precisely the limit is bracketed.
	GapPct float64 `json:"gap_pct,omitempty"`
	// Text is the answer in one sentence.
	Text string `json:"text"`
}

// LimiterEstimate is a token-bucket limiter's rate and burst as inferred from the probes: what
// nginx `limit_req rate=… burst=…` would be, with the uncertainty the counts allow.
type LimiterEstimate struct {
	// Kind is "token bucket", "none" (no rate-limited answers) or "not a token bucket" (the
	// accepted rate does not level off as the offered rate grows).
	Kind string `json:"kind"`
	// Rate ± RateErr per second: the accepted rate where probes were limited.
	Rate    float64 `json:"rate,omitempty"`
	RateErr float64 `json:"rate_err,omitempty"`
	// Burst ± BurstErr requests; BurstAtLeast when only a lower bound is known.
	Burst        float64 `json:"burst,omitempty"`
	BurstErr     float64 `json:"burst_err,omitempty"`
	BurstAtLeast bool    `json:"burst_at_least,omitempty"`
	// BurstFrom is "burst probe" or "sustained probes": where the burst figure comes from.
	BurstFrom string `json:"burst_from,omitempty"`
	// Delay is "nodelay" (the burst answered at once), "delay" (queued, answered at the rate)
	// or "" when it could not be told.
	Delay string `json:"delay,omitempty"`
	// Nginx is the equivalent nginx limit_req setting.
	Nginx string `json:"nginx,omitempty"`
	// Notes say how the figures were obtained and what limits their confidence.
	Notes []string `json:"notes,omitempty"`
	// BurstProbe is the short burst sent after an idle gap, if one ran.
	BurstProbe *BurstProbe `json:"burst_probe,omitempty"`
}

// BurstProbe is the limiter probe: an idle gap long enough for the bucket to empty, then a
// short burst well above the limit.
type BurstProbe struct {
	GapS    float64 `json:"gap_s"`
	Rate    float64 `json:"rate"`
	WindowS float64 `json:"window_s"`
	Sent    int64   `json:"sent"`
	OK      int64   `json:"ok"`
	Limited int64   `json:"limited"`
	Failed  int64   `json:"failed"`
	// OKLatency are the successful answers' latencies (a delaying limiter holds them).
	OKLatency Percentiles `json:"ok_latency_ms"`
}
