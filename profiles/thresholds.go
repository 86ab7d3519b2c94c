package profiles

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/thresholds"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// thresholds reads [thresholds]: conditions on the run's numbers (k6-style), judged at the end
// of a run, which then exits 1 if one fails.
//
//	[thresholds]
//	p99 = "< 50ms"                    # the whole run
//	limited = ["< 1%", "== 0"]        # a list: every condition must hold
//	[thresholds.stage.2]              # stage 2 only (stages count from 1, ramps' too)
//	rps = "> 950"
//
// A mistyped metric, a bound without operator or unit, a stage the plan does not have: each
// is a load-time problem at its line, never a threshold that silently passes.
func (c *checker) thresholds(doc table, stages int, have mixAsks) []thresholds.Threshold {
	t, ok := c.subTable(doc, "", "thresholds", `[thresholds] with p99 = "< 50ms"`)
	if !ok {
		return nil
	}
	out := c.thresholdTable(t, "thresholds", 0, have)
	v, has := t["stage"]
	if !has {
		return sortByLine(out)
	}
	byStage, ok := v.(table)
	if !ok {
		c.typeErr("thresholds.stage", v, "a table of stage numbers", `[thresholds.stage.2] with rps = "> 950"`)
		return out
	}
	keys := make([]string, 0, len(byStage))
	for k := range byStage {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		path := "thresholds.stage." + k
		n, err := strconv.Atoi(k)
		switch {
		case err != nil || n < 1:
			c.addf(path, "%q is not a stage number: write [thresholds.stage.2] for the second stage (stages count from 1)", k)
			continue
		case n > stages && stages > 0:
			c.addf(path, "the plan has %s: there is no stage %d", plural(stages, "stage"), n)
			continue
		}
		st, ok := byStage[k].(table)
		if !ok {
			c.typeErr(path, byStage[k], "a table", `[thresholds.stage.`+k+`] with p99 = "< 50ms"`)
			continue
		}
		out = append(out, c.thresholdTable(st, path, n, have)...)
	}
	return sortByLine(out)
}

// sortByLine puts thresholds in the order they are written, which is how they are reported.
func sortByLine(ts []thresholds.Threshold) []thresholds.Threshold {
	line := func(t thresholds.Threshold) int {
		v, _ := strconv.Atoi(t.Where[strings.LastIndex(t.Where, ":")+1:])
		return v
	}
	slices.SortStableFunc(ts, func(a, b thresholds.Threshold) int { return line(a) - line(b) })
	return ts
}

// thresholdTable reads metric = "cond" (or a list of conditions) pairs of one table.
func (c *checker) thresholdTable(t table, path string, stage int, have mixAsks) []thresholds.Threshold {
	keys := make([]string, 0, len(t))
	for k := range t {
		if stage == 0 && k == "stage" {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []thresholds.Threshold
	for _, k := range keys {
		field := joinPath(path, k)
		if !thresholds.IsMetric(k) {
			valid := thresholds.Metrics()
			if stage == 0 {
				valid = append(valid, "stage")
			}
			if s := suggest.Closest(k, valid); s != "" {
				c.addf(field, "unknown metric: did you mean %q?", s)
			} else {
				c.addf(field, "unknown metric: use one of %s", strings.Join(thresholds.Metrics(), ", "))
			}
			continue
		}
		var conds []string
		switch v := t[k].(type) {
		case string:
			conds = []string{v}
		case []any:
			for _, e := range v {
				s, ok := e.(string)
				if !ok {
					c.typeErr(field, e, "a condition in quotes", k+` = "< 50ms"`)
					conds = nil
					break
				}
				conds = append(conds, s)
			}
		default:
			c.typeErr(field, v, "a condition in quotes (or a list of them)", k+` = "< 50ms"`)
		}
		if len(conds) > 0 && !c.measurable(k, field, have) {
			continue
		}
		for _, cond := range conds {
			th, err := thresholds.Parse(k, cond)
			if err != nil {
				c.addErr(field, err, "%s", err.Error())
				continue
			}
			th.Stage = stage
			th.Where = c.file + ":" + strconv.Itoa(c.lines.line(field))
			out = append(out, th)
		}
	}
	return out
}

// mixAsks says whether any request of the mix has expect rules, or a cost.
type mixAsks struct{ rules, costs bool }

func mixAsksOf(reqs []engine.Request) mixAsks {
	var m mixAsks
	for _, r := range reqs {
		m.rules = m.rules || r.RPC.Checks()
		m.costs = m.costs || r.Cost > 0
	}
	return m
}

// measurable reports whether the profile's requests give metric something to measure: invalid
// needs expect rules, cost_rate costs. Without them the threshold could only fail (or, worse,
// pass on a 0 that measured nothing), so it is a problem at its line.
func (c *checker) measurable(metric, field string, have mixAsks) bool {
	switch {
	case thresholds.NeedsRules(metric) && !have.rules:
		c.addf(field, `no request has expect rules, so no answer is checked: add expect = "result" (to the profile or a [[request]]), or remove the threshold`)
		return false
	case thresholds.NeedsCosts(metric) && !have.costs:
		c.addf(field, "no request has a cost, so none is counted: add cost = N to each [[request]], or remove the threshold")
		return false
	}
	return true
}
