package profiles

import (
	"slices"
	"strconv"
	"strings"

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
func (c *checker) thresholds(doc table, stages int) []thresholds.Threshold {
	t, ok := c.subTable(doc, "", "thresholds", `[thresholds] with p99 = "< 50ms"`)
	if !ok {
		return nil
	}
	out := c.thresholdTable(t, "thresholds", 0)
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
		out = append(out, c.thresholdTable(st, path, n)...)
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
func (c *checker) thresholdTable(t table, path string, stage int) []thresholds.Threshold {
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
