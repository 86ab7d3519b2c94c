package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/cliflag"
)

// findLimitFlags are the flags of `rpcstress find-limit`: the SLO and the strategy, overriding
// the profile's [search], and the run flags that make sense for a search.
type findLimitFlags struct {
	sessionFlags
	noBurst bool

	p99, latency                      string
	maxLimited, maxFailed, minSuccess string
	start, maxRate, precision         string
	probe, settle, budget             time.Duration
}

func newFindLimitFlags(fs *flag.FlagSet) *findLimitFlags {
	f := &findLimitFlags{}
	fs.StringVar(&f.p99, "p99", "", "SLO: the p99 latency bound, a `duration` such as 50ms (latency of all answers, from the intended send)")
	fs.StringVar(&f.latency, "latency", "", "SLO: another percentile's bound, `pN=D` such as p95=50ms (p50 p75 p90 p95 p99 p999)")
	fs.StringVar(&f.maxLimited, "max-limited", "", "SLO: at most this `share` rate-limited, e.g. 1% (default 1%)")
	fs.StringVar(&f.maxFailed, "max-failed", "", "SLO: at most this `share` failed, e.g. 0.1% (default 0.1%)")
	fs.StringVar(&f.minSuccess, "min-success", "", "SLO: at least this `share` successful, e.g. 99%")
	fs.StringVar(&f.start, "start", "", "first `rate` probed; the search doubles from it (default 100/s)")
	fs.StringVar(&f.maxRate, "max-rate", "", "highest `rate` the search may probe (default 50000/s)")
	fs.StringVar(&f.precision, "precision", "", "stop when (first bad − last good)/last good is at most this `share` (default 5%)")
	cliflag.DurationVar(fs, &f.probe, "probe", 0, "each probe's measured window (default 10s)")
	cliflag.DurationVar(fs, &f.settle, "settle", 0, "time at each rate before measuring, not counted (default 2s)")
	cliflag.DurationVar(fs, &f.budget, "budget", 0, "the whole search at most, burst probe included (default 5m)")
	fs.BoolVar(&f.noBurst, "no-burst", false, "skip the limiter's burst probe (the limiter is inferred from the sustained probes alone)")
	f.declare(fs, sessionHelp{
		headless:  "print one line per probe instead of the dashboard (the default when output is not a terminal)",
		inline:    "draw the dashboard without the alternate screen",
		exitOnEnd: "leave the dashboard as soon as the search ends",
		demo:      "search the embedded mock node on 127.0.0.1 (default profile: the bundled demo, limited at 1000/s burst 60)",
		out:       "write the snapshot to this `file` (default runs/<profile>-findlimit-<UTC time>.json)",
		url:       "target `URL`, replacing the profile's",
	})
	return f
}

// searchConfig lays the flags over the profile's [search] (or the defaults). Every error names
// its flag.
func (f *findLimitFlags) searchConfig(base search.Config) (search.Config, error) {
	c := base
	errs := []error{
		parseFlagInto("start", f.start, engine.ParseRate, &c.Start),
		parseFlagInto("max-rate", f.maxRate, engine.ParseRate, &c.Max),
		parseFlagInto("precision", f.precision, search.ParsePercent, &c.PrecisionPct),
		parseFlagInto("max-limited", f.maxLimited, search.ParsePercent, &c.SLO.MaxLimitedPct),
		parseFlagInto("max-failed", f.maxFailed, search.ParsePercent, &c.SLO.MaxFailedPct),
		parseFlagInto("min-success", f.minSuccess, search.ParsePercent, &c.SLO.MinSuccessPct),
	}
	for _, d := range []struct {
		name string
		v    time.Duration
		dst  *time.Duration
	}{{"probe", f.probe, &c.Probe}, {"settle", f.settle, &c.Settle}, {"budget", f.budget, &c.Budget}} {
		switch {
		case !f.given(d.name):
		case d.v < 0 || (d.v == 0 && d.name != "settle"):
			errs = append(errs, fmt.Errorf("--%s %s: must be positive", d.name, d.v))
		default:
			*d.dst = d.v
		}
	}
	switch {
	case f.p99 != "" && f.latency != "":
		errs = append(errs, errors.New("--p99 and --latency: give one latency bound"))
	case f.p99 != "":
		d, err := time.ParseDuration(f.p99)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("--p99 %q: write a positive duration, e.g. --p99 50ms", f.p99))
		} else {
			c.SLO.Percentile, c.SLO.Latency = 99, d
		}
	case f.latency != "":
		p, d, err := search.ParseLatencyClause(f.latency)
		if err != nil {
			errs = append(errs, fmt.Errorf("--latency %w", err))
		} else {
			c.SLO.Percentile, c.SLO.Latency = p, d
		}
	}
	c.NoBurstProbe = f.noBurst
	if err := errors.Join(errs...); err != nil {
		return c, err
	}
	return c, c.Validate()
}

// parseFlagInto sets *dst to the flag's text read by parse; a flag not given ("") leaves the
// profile's value. The error names the flag.
func parseFlagInto[T any](name, text string, parse func(string) (T, error), dst *T) error {
	if text == "" {
		return nil
	}
	v, err := parse(text)
	if err != nil {
		return fmt.Errorf("--%s: %w", name, err)
	}
	*dst = v
	return nil
}
