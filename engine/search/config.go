package search

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Config is one search: where it starts, how far it may go, how long each probe lasts, when it
// stops, and the SLO each probe is judged by.
type Config struct {
	// Start is the first rate probed; the search doubles from it (or halves, if it fails).
	Start engine.Rate
	// Max is the highest rate the search may probe.
	Max engine.Rate
	// PrecisionPct: stop when (first bad − last good) / last good ≤ this many percent.
	PrecisionPct float64
	// Probe is each probe's measured window; Settle the window before it that is not counted.
	Probe, Settle time.Duration
	// Budget bounds the whole search, burst probe included; a probe that would end past it is
	// not started.
	Budget time.Duration
	SLO    SLO
	// NoBurstProbe skips the limiter's burst probe (the limiter is then inferred from the
	// sustained probes alone).
	NoBurstProbe bool
	// MaxProbes bounds the number of sustained probes (a guard; the budget normally ends first).
	MaxProbes int
}

// SLO is what a probe must meet. Shares are percentages of the completed answers.
type SLO struct {
	// Percentile (50, 75, 90, 95, 99 or 99.9) of the latency of all answers, from the intended
	// send; Latency is its bound, 0 for no latency clause.
	Percentile float64
	Latency    time.Duration
	// MaxLimitedPct and MaxFailedPct bound the rate-limited and failed shares.
	MaxLimitedPct float64
	MaxFailedPct  float64
	// MinSuccessPct is the least share of successful answers; 0 for no such clause.
	MinSuccessPct float64
}

// Defaults of a search: what `rpcstress find-limit` uses for what neither the flags nor the
// profile's [search] table set.
const (
	DefaultStart         engine.Rate = 100
	DefaultMax           engine.Rate = 50000
	DefaultPrecisionPct              = 5.0
	DefaultProbe                     = 10 * time.Second
	DefaultSettle                    = 2 * time.Second
	DefaultBudget                    = 5 * time.Minute
	DefaultMaxLimitedPct             = 1.0
	DefaultMaxFailedPct              = 0.1
	DefaultPercentile                = 99.0
	defaultMaxProbes                 = 60
)

// DefaultConfig is a search with every default: from 100/s up to 50000/s, 5 % precision,
// 10 s probes after 2 s of settling, 5 minutes in all; SLO limited ≤ 1 %, failed ≤ 0.1 %, no
// latency clause.
func DefaultConfig() Config {
	return Config{
		Start: DefaultStart, Max: DefaultMax, PrecisionPct: DefaultPrecisionPct,
		Probe: DefaultProbe, Settle: DefaultSettle, Budget: DefaultBudget,
		SLO: SLO{Percentile: DefaultPercentile, MaxLimitedPct: DefaultMaxLimitedPct, MaxFailedPct: DefaultMaxFailedPct},
	}
}

// Validate reports every problem of c at once, each saying how to fix it.
func (c Config) Validate() error {
	var errs []error
	add := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.Start <= 0 {
		add("start %s: the first rate must be above 0, e.g. 100/s", c.Start)
	}
	if c.Max < c.Start {
		add("max %s is below start %s: the search climbs from start up to max", c.Max, c.Start)
	}
	if c.PrecisionPct <= 0 || c.PrecisionPct > 100 {
		add("precision %g%%: use more than 0%% and at most 100%%, e.g. 5%%", c.PrecisionPct)
	}
	if c.Probe <= 0 {
		add("probe %s: each probe needs a measured window, e.g. 10s", c.Probe)
	}
	if c.Settle < 0 {
		add("settle %s is negative: use 0 for none, e.g. 2s", c.Settle)
	}
	if c.Probe > 0 && c.Budget < c.Settle+c.Probe {
		add("budget %s is shorter than one probe (settle %s + probe %s): give at least a few probes, e.g. 5m", c.Budget, c.Settle, c.Probe)
	}
	if err := c.SLO.validate(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (s SLO) validate() error {
	var errs []error
	if s.Latency < 0 {
		errs = append(errs, fmt.Errorf("latency bound %s is negative", s.Latency))
	}
	if s.Latency > 0 {
		if _, ok := PercentileName(s.Percentile); !ok {
			errs = append(errs, fmt.Errorf("percentile %g: use one of 50, 75, 90, 95, 99, 99.9", s.Percentile))
		}
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"max_limited", s.MaxLimitedPct}, {"max_failed", s.MaxFailedPct}, {"min_success", s.MinSuccessPct}} {
		if p.v < 0 || p.v > 100 || math.IsNaN(p.v) {
			errs = append(errs, fmt.Errorf("%s %g%%: a share is from 0%% to 100%%", p.name, p.v))
		}
	}
	return errors.Join(errs...)
}

// String writes the SLO for people: "p99 ≤ 50ms, limited ≤ 1%, failed ≤ 0.1%".
func (s SLO) String() string {
	var parts []string
	if s.Latency > 0 {
		name, _ := PercentileName(s.Percentile)
		parts = append(parts, name+" ≤ "+s.Latency.String())
	}
	parts = append(parts, "limited ≤ "+pct(s.MaxLimitedPct), "failed ≤ "+pct(s.MaxFailedPct))
	if s.MinSuccessPct > 0 {
		parts = append(parts, "success ≥ "+pct(s.MinSuccessPct))
	}
	return strings.Join(parts, ", ")
}

// Record is the SLO as the snapshot keeps it.
func (s SLO) Record() engine.SearchSLO {
	r := engine.SearchSLO{MaxLimitedPct: s.MaxLimitedPct, MaxFailedPct: s.MaxFailedPct, MinSuccessPct: s.MinSuccessPct}
	if s.Latency > 0 {
		r.Percentile, r.LatencyMs = s.Percentile, ms(s.Latency)
	}
	return r
}

// settings is the strategy's knobs as the snapshot keeps them.
func (c Config) settings() engine.SearchSettings {
	return engine.SearchSettings{
		StartRate: float64(c.Start), MaxRate: float64(c.Max), PrecisionPct: c.PrecisionPct,
		ProbeS: c.Probe.Seconds(), SettleS: c.Settle.Seconds(), BudgetS: c.Budget.Seconds(),
	}
}

// PercentileName is the key of a percentile an SLO may bound (99 → "p99", 99.9 → "p999"): one
// of engine.Percentiles' quantiles, min and max excepted.
func PercentileName(p float64) (string, bool) {
	if key, ok := engine.PercentileKey(p); ok && sloPercentile(p) {
		return key, true
	}
	return "p" + strconv.FormatFloat(p, 'g', -1, 64), false
}

// PercentileOf reads a percentile from its key ("p99" → 99).
func PercentileOf(name string) (float64, bool) {
	p, ok := engine.PercentileQuantile(name)
	return p, ok && sloPercentile(p)
}

// PercentileNames are the keys PercentileOf knows, for "did you mean" hints.
func PercentileNames() []string {
	var out []string
	for _, f := range engine.PercentileFigures() {
		if sloPercentile(f.Quantile) {
			out = append(out, f.Key)
		}
	}
	return out
}

// sloPercentile: the fastest and the slowest answer are no percentile an SLO bounds.
func sloPercentile(p float64) bool { return p > 0 && p < 100 }

// latencyAt picks percentile p out of ps (ms); p99 for a p that is none an SLO may bound.
func latencyAt(ps engine.Percentiles, p float64) float64 {
	if v, ok := ps.At(p); ok && sloPercentile(p) {
		return v
	}
	return ps.P99
}

// ParsePercent reads a share written as a percentage: "1%", "0.1 %", "99.5%".
func ParsePercent(s string) (float64, error) {
	t := strings.TrimSpace(s)
	num, ok := strings.CutSuffix(t, "%")
	if !ok {
		return 0, fmt.Errorf("%q is not a percentage: write it with a %% sign, e.g. \"1%%\"", s)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a percentage: write a number and a %% sign, e.g. \"0.1%%\"", s)
	}
	if v < 0 || v > 100 {
		return 0, fmt.Errorf("%q is out of range: a share is from 0%% to 100%%", s)
	}
	return v, nil
}

// ParseLatencyClause reads the --latency flag's "p95=50ms" (a percentile key and a bound).
func ParseLatencyClause(s string) (float64, time.Duration, error) {
	key, val, ok := strings.Cut(s, "=")
	if !ok {
		return 0, 0, fmt.Errorf("%q: write a percentile and a bound, e.g. p95=50ms", s)
	}
	p, ok := PercentileOf(strings.TrimSpace(key))
	if !ok {
		return 0, 0, fmt.Errorf("%q: %q is not a percentile: use one of %s", s, key, strings.Join(PercentileNames(), ", "))
	}
	d, err := time.ParseDuration(strings.TrimSpace(val))
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("%q: %q is not a positive duration: write e.g. 50ms", s, val)
	}
	return p, d, nil
}

// pct writes a percentage to three significant digits, without trailing zeros: 1 → "1%",
// 0.1 → "0.1%", 4.7619 → "4.76%".
func pct(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + "%"
}

// ms is a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
