package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// toolOrder is the order tools appear in every table: ours first, then the peers, then
// bench/cmd/floor's designs (bench/floor.sh).
var toolOrder = []string{"rpcstress", "rpcstress-workers", "rpcstress-tick10", "rpcstress-headless", "rpcstress-dashboard", "wrk", "bombardier", "oha", "oha-corrected", "vegeta", "hey",
	"floor-loop", "floor-lazy", "floor-goroutines", "floor-bare"}

func toolRank(t string) int {
	for i, o := range toolOrder {
		if o == t {
			return i
		}
	}
	return len(toolOrder)
}

// report renders RESULTS.md from one suite run.
type report struct {
	d    *Data
	b    strings.Builder
	dir  string // the run's raw folder, shown as $RUN in commands
	root string // the repository, stripped from paths in commands
}

func (p *report) pf(format string, a ...any) { fmt.Fprintf(&p.b, format, a...) }

// runs returns the runs of one scenario case for one tool ("" = any case).
func (p *report) runs(scen, cs, tool string) []*Run {
	var out []*Run
	for _, r := range p.d.Runs {
		if r.Scenario == scen && (cs == "" || r.Case == cs) && r.Tool == tool {
			out = append(out, r)
		}
	}
	return out
}

// tools lists the tools that ran in a scenario case, in table order.
func (p *report) tools(scen, cs string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range p.d.Runs {
		if r.Scenario == scen && (cs == "" || r.Case == cs) && !seen[r.Tool] {
			seen[r.Tool] = true
			out = append(out, r.Tool)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return toolRank(out[i]) < toolRank(out[j]) })
	return out
}

// firstRun is the first run of the first tool (in table order) of a scenario case ("" = any
// case): the settings a section's text gives (seconds, connections) are read from it. Nil when
// none ran.
func (p *report) firstRun(scen, cs string) *Run {
	ts := p.tools(scen, cs)
	if len(ts) == 0 {
		return nil
	}
	return p.runs(scen, cs, ts[0])[0]
}

// section starts the section of a scenario case with its heading and text (a format, with
// a), or reports false and writes nothing when no tool ran the case.
func (p *report) section(scen, cs, text string, a ...any) bool {
	if len(p.tools(scen, cs)) == 0 {
		return false
	}
	p.pf(text, a...)
	return true
}

// column is one column of a per-tool table: its head, and the cell it makes of one tool's runs.
type column struct {
	head string
	cell func(rs []*Run) string
}

// spreadOf is the column of a metric's median [min–max] over a tool's runs, printed with f.
func spreadOf(head string, m func(*Run) (float64, bool), f func(float64) string) column {
	return column{head, func(rs []*Run) string { return of(rs, m).cell(f) }}
}

// toolTable writes the table of a scenario case: a row per tool that ran it, in table order,
// headed first (what a row is: "tool", "mode"), then one cell per column.
func (p *report) toolTable(scen, cs, first string, cols ...column) {
	head := []string{first}
	for _, c := range cols {
		head = append(head, c.head)
	}
	var rows [][]string
	for _, t := range p.tools(scen, cs) {
		rs, row := p.runs(scen, cs, t), []string{t}
		for _, c := range cols {
			row = append(row, c.cell(rs))
		}
		rows = append(rows, row)
	}
	p.table(head, rows)
}

// cases lists a scenario's cases, numbers in numeric order.
func (p *report) cases(scen string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range p.d.Runs {
		if r.Scenario == scen && !seen[r.Case] {
			seen[r.Case] = true
			out = append(out, r.Case)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, ea := strconv.ParseFloat(out[i], 64)
		b, eb := strconv.ParseFloat(out[j], 64)
		if ea == nil && eb == nil {
			return a < b
		}
		return out[i] < out[j]
	})
	return out
}

// table writes a Markdown table.
func (p *report) table(head []string, rows [][]string) {
	p.pf("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, r := range rows {
		p.pf("| %s |\n", strings.Join(r, " | "))
	}
	p.pf("\n")
}

// The metrics of a run the tables show, each with whether the run has it.

func mServed(r *Run) (float64, bool)  { return r.ServedRate(), r.Served > 0 }
func mCount(r *Run) (float64, bool)   { return r.Served, true }
func mToolRPS(r *Run) (float64, bool) { return r.Out.RPS, r.Out.RPS > 0 }
func mCPUM(r *Run) (float64, bool)    { return r.CPUPerM(), r.Served > 0 && r.CPU > 0 }
func mCPU(r *Run) (float64, bool)     { return r.CPU, r.CPU > 0 }
func mCPUPct(r *Run) (float64, bool)  { return 100 * r.CPU / r.Seconds, r.CPU > 0 }
func mRSS(r *Run) (float64, bool)     { return r.RSSKB, r.RSSKB > 0 }
func mP50(r *Run) (float64, bool)     { return r.Out.P50, r.Out.HasLat }
func mP99(r *Run) (float64, bool)     { return r.Out.P99, r.Out.HasLat }
func mTgtCPU(r *Run) (float64, bool)  { return 100 * r.TargetCPU / r.Seconds, r.Seconds > 0 }
func mShare(r *Run) (float64, bool)   { return 100 * r.Served / (r.Rate * r.Seconds), r.Rate > 0 }
func m200(r *Run) (float64, bool)     { return r.Served200, true }
func m429(r *Run) (float64, bool)     { return r.Served429, true }

func (p *report) render() string {
	e := p.d.Env
	p.pf("# rpcstress benchmark results\n\n")
	p.pf("Generated by `bench/run.sh` (%s to %s, %s s in all) and `bench/cmd/benchreport`: measured, never edited by hand. "+
		"Re-run `bench/run.sh` to refresh it.\n\n", e["started"], e["finished"], e["elapsed_s"])
	reps, _ := strconv.Atoi(e["reps"])
	p.pf("%d repetition(s) of %s s per run", reps, e["seconds"])
	if reps < 3 {
		p.pf(" — **a smoke run: fewer than the 3 repetitions the suite asks for; do not quote these figures**")
	}
	p.pf(". Scenarios: %s. Tools: %s.\n\n", e["scenarios"], e["tools"])

	p.machine()
	p.method()
	p.goals()
	p.scenario1()
	p.scenario2()
	p.scenario3()
	p.scenario4()
	p.scenario5()
	p.scenario6()
	p.scenario7()
	p.scenario8()
	p.problems()
	p.gobench()
	p.commands()
	return p.b.String()
}

func mustFloat(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}
