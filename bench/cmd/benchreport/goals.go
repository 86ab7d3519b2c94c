package main

import (
	"fmt"
	"math"
	"strings"
)

// goals holds the suite's results against the table of goals.
func (p *report) goals() {
	var rows [][]string
	ours := of(p.runs("1", "closed", "rpcstress"), mCPUM)
	wrk := of(p.runs("1", "closed", "wrk"), mCPUM)
	if ours.N > 0 && wrk.N > 0 {
		ratio := ours.Median / wrk.Median
		rows = append(rows, []string{"1 closed loop, CPU s per 1M req", "≤ 1.0× wrk",
			fmt.Sprintf("rpcstress %s, wrk %s: %.2f×", fSig(ours.Median), fSig(wrk.Median), ratio), mark(ratio <= 1.0)})
	}
	for _, cs := range []string{"20000", "50000"} {
		ours := of(p.runs("2", cs, "rpcstress"), mCPUM)
		peer, v := p.peerBest("2", cs, mCPUM)
		if ours.N > 0 && peer != "" {
			ratio := ours.Median / v
			rows = append(rows, []string{fmt.Sprintf("2 fixed %sk, CPU s per 1M req", cs[:len(cs)-3]), "≤ 0.9× best peer",
				fmt.Sprintf("rpcstress %s, best peer %s %s: %.2f×", fSig(ours.Median), peer, fSig(v), ratio), mark(ratio <= 0.9)})
		}
	}
	var worst float64 = -1
	var worstCase string
	var rss Spread
	var rssAll []float64
	for _, cs := range p.cases("2") {
		s := of(p.runs("2", cs, "rpcstress"), mShare)
		if s.N == 0 {
			continue
		}
		if d := math.Abs(s.Median - 100); d > worst {
			worst, worstCase = d, cs
		}
		for _, r := range p.runs("2", cs, "rpcstress") {
			if v, ok := mRSS(r); ok {
				rssAll = append(rssAll, v)
			}
		}
	}
	if worst >= 0 {
		rows = append(rows, []string{"2 achieved rate", "within 0.1 %",
			fmt.Sprintf("worst median: %.3f %% off at %s/s", worst, worstCase), mark(worst <= 0.1)})
	}
	if rss = spread(rssAll); rss.N > 0 {
		soak, ok := p.soak()
		switch {
		case ok:
			rows = append(rows, []string{"2 RSS", "≤ 48 MB (and flat over 5 min)",
				fmt.Sprintf("max %s MB over all scenario 2 runs; scenario 8's %s s soak: peak %s MB, trend after warm-up %+.2f MB (%+.1f %% of its %s MB mean)",
					fMB(rss.Max), fInt(soak.Run.Seconds), fMB(soak.Peak), soak.Trend/1024, 100*soak.Growth, fMB(soak.Mean)),
				mark(rss.Max <= 48*1024 && soak.Peak <= 48*1024 && soak.Flat() && soak.Run.Seconds >= 300)})
		default:
			rows = append(rows, []string{"2 RSS", "≤ 48 MB (and flat over 5 min)",
				fmt.Sprintf("max %s MB over all scenario 2 runs (no soak run, scenario 8: flatness not measured)", fMB(rss.Max)), "– not measured"})
		}
	}
	if held := p.searchResults(); len(held) > 0 {
		best, bestV := "", -1.0
		var ourV float64 = -1
		for t, h := range held {
			if t == "rpcstress" {
				ourV = h.rate
			} else if h.rate > bestV {
				best, bestV = t, h.rate
			}
		}
		if ourV >= 0 && best != "" {
			rows = append(rows, []string{"3 max held rate, one core", "highest of all",
				fmt.Sprintf("rpcstress %s/s, best peer %s %s/s", fInt(ourV), best, fInt(bestV)), mark(ourV >= bestV)})
		}
	}
	if s := of(p.runs("5", "stall", "rpcstress"), mP99); s.N > 0 {
		truth := stallTruth(p.runs("5", "stall", "rpcstress")[0].Seconds)
		off := 100 * (s.Median - truth) / truth
		rows = append(rows, []string{"5 stall p99", "within 5 % of the truth",
			fmt.Sprintf("rpcstress %s ms vs %s ms: %+.1f %%", fSig(s.Median), fSig(truth), off), mark(math.Abs(off) <= 5)})
	}
	if rs := p.runs("6", "bucket", "rpcstress"); len(rs) > 0 {
		s := of(rs, func(r *Run) (float64, bool) { return 100 * r.Served200 / bucketIdeal(r.Seconds), true })
		rows = append(rows, []string{"6 limiter fairness", "≥ 99.5 % of ideal",
			fmt.Sprintf("rpcstress %.2f %% of %s", s.Median, fInt(bucketIdeal(rs[0].Seconds))), mark(s.Median >= 99.5)})
	}
	if s := p.dashboardDelta(); s.N > 0 {
		rows = append(rows, []string{"7 dashboard overhead", "≤ 5 % of a core at 20k",
			fmt.Sprintf("%+.1f %% of a core", s.Median), mark(s.Median <= 5)})
	}
	if len(rows) == 0 {
		return
	}
	p.pf("## Against the goals (issue 7)\n\n")
	p.table([]string{"scenario", "goal", "measured (medians, this run)", ""}, rows)
}

// peerBest is the lowest median of a metric among the peers (not rpcstress) in a scenario case.
func (p *report) peerBest(scen, cs string, m func(*Run) (float64, bool)) (string, float64) {
	best, bestV := "", math.Inf(1)
	for _, t := range p.tools(scen, cs) {
		if strings.HasPrefix(t, "rpcstress") {
			continue
		}
		if s := of(p.runs(scen, cs, t), m); s.N > 0 && s.Median < bestV {
			best, bestV = t, s.Median
		}
	}
	return best, bestV
}

func mark(ok bool) string {
	if ok {
		return "✓ met"
	}
	return "✗ not met"
}
