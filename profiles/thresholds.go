package profiles

import (
	"fmt"
	"maps"
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
//	p99 = "< 50ms"                    # the whole run (each target of a run with several)
//	limited = ["< 1%", "== 0"]        # a list: every condition must hold
//	answers_mismatch = "== 0"         # the targets' answers compared (compare_answers)
//	[thresholds.stage.2]              # stage 2 only (stages count from 1, ramps' too)
//	rps = "> 950"
//	[thresholds.target.erigon]        # one target of several: the keys of [thresholds]
//	p99 = "< 80ms"
//	[thresholds.target.erigon.stage.2]
//	rps = "> 900"
//
// A mistyped metric, a bound without operator or unit, a stage the plan does not have: each
// is a load-time problem at its line, never a threshold that silently passes. A target the run
// does not have is one too (checkThresholdsRun), once the targets are known: after the command
// line's --url NAME=URL and --equality.
func (c *checker) thresholds(doc table, stages int, have mixAsks) []thresholds.Threshold {
	t, ok := c.subTable(doc, "", "thresholds", `[thresholds] with p99 = "< 50ms"`)
	if !ok {
		return nil
	}
	out := c.thresholdGroup(t, "thresholds", stages, have, "target")
	out = append(out, c.targetThresholds(t, stages, have)...)
	return sortByLine(out)
}

// thresholdGroup reads one table of conditions and its [….stage.N] tables; the keys in skip
// are sub-tables read elsewhere.
func (c *checker) thresholdGroup(t table, path string, stages int, have mixAsks, skip ...string) []thresholds.Threshold {
	out := c.thresholdTable(t, path, 0, have, append(skip, "stage"))
	v, has := t["stage"]
	if !has {
		return out
	}
	byStage, ok := v.(table)
	if !ok {
		c.typeErr(path+".stage", v, "a table of stage numbers", "["+path+`.stage.2] with rps = "> 950"`)
		return out
	}
	for _, k := range slices.Sorted(maps.Keys(byStage)) {
		field := path + ".stage." + k
		n, err := strconv.Atoi(k)
		switch {
		case err != nil || n < 1:
			c.addf(field, "%q is not a stage number: write [%s.stage.2] for the second stage (stages count from 1)", k, path)
			continue
		case n > stages && stages > 0:
			c.addf(field, "the plan has %s: there is no stage %d", plural(stages, "stage"), n)
			continue
		}
		st, ok := byStage[k].(table)
		if !ok {
			c.typeErr(field, byStage[k], "a table", "["+field+`] with p99 = "< 50ms"`)
			continue
		}
		out = append(out, c.thresholdTable(st, field, n, have, nil)...)
	}
	return out
}

// targetThresholds reads [thresholds.target.NAME]: the keys of [thresholds] (a stage table
// too), judged on target NAME alone. Whether the run has that target is known once the
// command line has had its say (--url NAME=URL): checkThresholdsRun.
func (c *checker) targetThresholds(t table, stages int, have mixAsks) []thresholds.Threshold {
	v, has := t["target"]
	if !has {
		return nil
	}
	byTarget, ok := v.(table)
	if !ok {
		c.typeErr("thresholds.target", v, "a table of target names", `[thresholds.target.geth] with p99 = "< 50ms"`)
		return nil
	}
	var out []thresholds.Threshold
	for _, name := range slices.Sorted(maps.Keys(byTarget)) {
		path := "thresholds.target." + name
		tt, ok := byTarget[name].(table)
		if !ok {
			c.typeErr(path, byTarget[name], "a table", "["+path+`] with p99 = "< 50ms"`)
			continue
		}
		for _, th := range c.thresholdGroup(tt, path, stages, have) {
			th.Target = name
			out = append(out, th)
		}
	}
	return out
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

// thresholdTable reads metric = "cond" (or a list of conditions) pairs of one table; the keys
// in tables are its sub-tables, read elsewhere.
func (c *checker) thresholdTable(t table, path string, stage int, have mixAsks, tables []string) []thresholds.Threshold {
	keys := make([]string, 0, len(t))
	for k := range t {
		if !slices.Contains(tables, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []thresholds.Threshold
	for _, k := range keys {
		field := joinPath(path, k)
		if thresholds.IsAnswers(k) && path != "thresholds" {
			// The answers are compared across the targets over the whole run.
			c.addf(field, "%s measures the answers compared across all targets over the whole run: write it in [thresholds], not [%s]", k, path)
			continue
		}
		if !thresholds.IsMetric(k) {
			valid := append(thresholds.Metrics(), tables...)
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

// mixAsks says whether any request of the mix has expect rules, or a cost, and whether the
// profile holds subscriptions (a newHeads one: heads).
type mixAsks struct{ rules, costs, subs, heads bool }

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
	if thresholds.IsSubMetric(metric) {
		return c.subMeasurable(metric, field, have)
	}
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

// checkThresholdsRun holds the thresholds against the run they will judge: a condition of
// [thresholds.target.NAME] needs a target NAME, and one on the answers compared needs a run
// that compares them. Both are known only once the command line has had its say (--url
// NAME=URL makes or replaces the targets, --equality turns the comparison on), so Apply checks
// them, not Load; `validate` asks CheckTargets. One problem per unknown target, at its first
// condition's line; never a condition that silently judges nothing.
func checkThresholdsRun(ts []thresholds.Threshold, cfg *engine.Config) []*Problem {
	names := make([]string, len(cfg.Targets))
	for i, t := range cfg.Targets {
		names[i] = t.Name
	}
	var out []*Problem
	told := map[string]bool{}
	for _, t := range ts {
		switch {
		case t.Target != "" && !slices.Contains(names, t.Target) && !told[t.Target]:
			told[t.Target] = true
			out = append(out, thresholdProblem(t, "thresholds.target."+t.Target, noTargetText(t.Target, names)))
		case thresholds.IsAnswers(t.Metric) && !cfg.CompareAnswers:
			out = append(out, thresholdProblem(t, thresholdField(t), t.Metric+" measures the targets' answers compared, "+
				"and this run compares none: add compare_answers = true (or run with --equality), or remove the threshold"))
		}
	}
	return out
}

// noTargetText says that the run has no target name, and what to write instead.
func noTargetText(name string, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("the run sends to a single target, so there is no target %q to judge: name the targets "+
			"([[target]] tables, or --url %s=URL for each), or write the conditions in [thresholds]", name, name)
	}
	msg := fmt.Sprintf("the run has no target %q (its targets: %s)", name, strings.Join(names, ", "))
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return msg
}

// thresholdField is where a condition is written: "thresholds.target.geth.stage.2.p99".
func thresholdField(t thresholds.Threshold) string {
	f := "thresholds"
	if t.Target != "" {
		f += ".target." + t.Target
	}
	if t.Stage > 0 {
		f += ".stage." + strconv.Itoa(t.Stage)
	}
	return f + "." + t.Metric
}

// thresholdProblem is a problem at the line a condition was read from (its Where, file:line).
func thresholdProblem(t thresholds.Threshold, field, msg string) *Problem {
	file, line := t.Where, 0
	if i := strings.LastIndex(t.Where, ":"); i >= 0 {
		if n, err := strconv.Atoi(t.Where[i+1:]); err == nil {
			file, line = t.Where[:i], n
		}
	}
	return &Problem{File: file, Line: line, Field: field, Msg: msg}
}

// CheckTargets holds the thresholds against the profile's own targets and comparison, as
// `validate` sees it without the command line: a profile that names no targets and compares
// nothing leaves them to its run's --url NAME=URL and --equality (Apply checks them then).
func (p *Profile) CheckTargets() error {
	if len(p.base.Targets) == 0 && !p.base.CompareAnswers {
		return nil
	}
	if problems := checkThresholdsRun(p.Thresholds, &p.base); len(problems) > 0 {
		return newError(p.Path, problems)
	}
	return nil
}
