package profiles

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine/search"
)

// searchKeys are the keys of [search], the settings of `rpcstress find-limit`.
func searchKeys() []string {
	return append([]string{"start", "max", "probe", "settle", "precision", "budget",
		"percentile", "latency", "max_limited", "max_failed", "min_success"}, search.PercentileNames()...)
}

// search reads [search]: the find-limit search's strategy and SLO. Keys left out keep
// search.DefaultConfig's values; the command line overrides both. It reports whether the
// table was there.
func (c *checker) search(doc table) (search.Config, bool) {
	cfg := search.DefaultConfig()
	t, ok := c.subTable(doc, "", "search", `[search] with start = "100/s", p99 = "50ms"`)
	if !ok {
		return cfg, false
	}
	const path = "search"
	c.unknownKeys(t, path, searchKeys())
	if r, ok := c.rate(t, path, "start"); ok {
		if r <= 0 {
			c.addf("search.start", `must be above 0: the search doubles from it, e.g. start = "100/s"`)
		}
		cfg.Start = r
	}
	if r, ok := c.rate(t, path, "max"); ok {
		cfg.Max = r
	}
	if cfg.Max < cfg.Start {
		c.addf("search.max", "%s is below start = %s: the search climbs from start up to max", cfg.Max, cfg.Start)
	}
	if d, ok := c.duration(t, path, "probe", `probe = "10s"`); ok {
		if d == 0 {
			c.addf("search.probe", `must be more than 0: it is each probe's measured window, e.g. probe = "10s"`)
		}
		cfg.Probe = d
	}
	if d, ok := c.duration(t, path, "settle", `settle = "2s"`); ok {
		cfg.Settle = d
	}
	if d, ok := c.duration(t, path, "budget", `budget = "10m"`); ok {
		if d < cfg.Settle+cfg.Probe {
			c.addf("search.budget", "%s is shorter than one probe (settle %s + probe %s): give the search room for several, e.g. budget = \"10m\"", d, cfg.Settle, cfg.Probe)
		}
		cfg.Budget = d
	}
	if v, ok := c.percent(t, path, "precision", `precision = "5%"`); ok {
		if v == 0 {
			c.addf("search.precision", `must be more than 0%%: the search stops when the bracket is this narrow, e.g. precision = "5%%"`)
		}
		cfg.PrecisionPct = v
	}
	c.searchLatency(t, &cfg.SLO)
	if v, ok := c.percent(t, path, "max_limited", `max_limited = "1%"`); ok {
		cfg.SLO.MaxLimitedPct = v
	}
	if v, ok := c.percent(t, path, "max_failed", `max_failed = "0.1%"`); ok {
		cfg.SLO.MaxFailedPct = v
	}
	if v, ok := c.percent(t, path, "min_success", `min_success = "99%"`); ok {
		cfg.SLO.MinSuccessPct = v
	}
	return cfg, true
}

// searchLatency reads the SLO's latency clause, written either p99 = "50ms" (any percentile
// key) or percentile = 99 with latency = "50ms".
func (c *checker) searchLatency(t table, slo *search.SLO) {
	var keys []string
	for _, k := range search.PercentileNames() {
		if _, ok := t[k]; ok {
			keys = append(keys, k)
		}
	}
	// In file order, so a second clause is reported where it was written.
	slices.SortStableFunc(keys, func(a, b string) int { return c.lines.line("search."+a) - c.lines.line("search."+b) })
	_, hasLatency := t["latency"]
	_, hasPercentile := t["percentile"]
	switch {
	case len(keys) > 1:
		c.addf("search."+keys[1], "one latency clause per search: %s and %s are both set; keep one", keys[0], keys[1])
		return
	case len(keys) == 1 && (hasLatency || hasPercentile):
		c.addf("search."+keys[0], "write the latency clause once: %s = \"50ms\", or percentile = 99 with latency = \"50ms\", not both", keys[0])
		return
	case len(keys) == 1:
		if d, ok := c.duration(t, "search", keys[0], keys[0]+` = "50ms"`); ok {
			if d == 0 {
				c.addf("search."+keys[0], `must be more than 0, e.g. %s = "50ms"`, keys[0])
			}
			slo.Percentile, _ = search.PercentileOf(keys[0])
			slo.Latency = d
		}
		return
	case hasPercentile && !hasLatency:
		c.addf("search.percentile", `needs a bound: add latency = "50ms" (or write p99 = "50ms" alone)`)
		return
	}
	if hasPercentile {
		v, ok := t["percentile"]
		p, isNum := toFloat(v)
		if !ok || !isNum {
			c.typeErr("search.percentile", v, "a number", "percentile = 99")
			return
		}
		if _, known := search.PercentileName(p); !known {
			c.addf("search.percentile", "%v is not a percentile rpcstress keeps: use 50, 75, 90, 95, 99 or 99.9", v)
			return
		}
		slo.Percentile = p
	}
	if d, ok := c.duration(t, "search", "latency", `latency = "50ms"`); ok {
		if d == 0 {
			c.addf("search.latency", `must be more than 0, e.g. latency = "50ms"`)
		}
		slo.Latency = d
	}
}

// percent reads a share written as a percentage string: "1%".
func (c *checker) percent(t table, path, key, example string) (float64, bool) {
	field := joinPath(path, key)
	if f, isNum := toFloat(t[key]); isNum {
		c.addf(field, "%v: write a percentage in quotes, e.g. %s (a bare number could mean a fraction or a percent)", f, example)
		return 0, false
	}
	s, ok := value[string](c, t, path, key, "a percentage in quotes", example)
	if !ok {
		return 0, false
	}
	p, err := search.ParsePercent(s)
	if err != nil {
		c.addErr(field, err, "%s", err.Error())
		return 0, false
	}
	return p, true
}

// toFloat reads an integer or float TOML value.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// describeSearch is [search] for `validate`, when the profile has one.
func (p *Profile) describeSearch() [][2]string {
	if !p.HasSearch {
		return nil
	}
	s := p.Search
	return [][2]string{
		{"find-limit", fmt.Sprintf("from %s up to %s, ×2 then bisection to %s; probes of %s after %s settling; budget %s",
			s.Start, s.Max, strconv.FormatFloat(s.PrecisionPct, 'g', -1, 64)+"%", s.Probe, s.Settle, s.Budget)},
		{"SLO", s.SLO.String()},
	}
}

// describeThresholds writes [thresholds] for `validate`.
func (p *Profile) describeThresholds() [][2]string {
	if len(p.Thresholds) == 0 {
		return nil
	}
	parts := make([]string, len(p.Thresholds))
	for i, t := range p.Thresholds {
		parts[i] = t.Label() + " " + t.Condition
	}
	return [][2]string{{"thresholds", strings.Join(parts, "; ") + " (exit 1 when one fails)"}}
}
