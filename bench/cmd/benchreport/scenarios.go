package main

import "fmt"

func (p *report) scenario1() {
	const scen, cs = "1", "closed"
	if len(p.tools(scen, cs)) == 0 {
		return
	}
	p.pf("## 1. Closed loop, 50 connections, max throughput\n\n")
	rows := p.perTool(scen, cs, func(rs []*Run) []string {
		return []string{of(rs, mServed).cell(fInt), of(rs, func(r *Run) (float64, bool) { return r.Out.RPS, r.Out.RPS > 0 }).cell(fInt),
			of(rs, mCPUM).cell(fSig), of(rs, mRSS).cell(fMB), of(rs, mP50).cell(fSig), of(rs, mP99).cell(fSig),
			of(rs, mCount).cell(fInt), of(rs, mTgtCPU).cell(fInt)}
	})
	p.table([]string{"tool", "req/s", "tool req/s", "CPU s/1M", "RSS MB", "p50 ms", "p99 ms", "server count", "target CPU %"}, rows)
}

func (p *report) scenario2() {
	const scen = "2"
	if len(p.cases(scen)) == 0 {
		return
	}
	p.pf("## 2. Fixed rate, 50 connections\n\n")
	for _, cs := range p.cases(scen) {
		p.pf("### %s req/s\n\n", fInt(mustFloat(cs)))
		rows := p.perTool(scen, cs, func(rs []*Run) []string {
			return []string{of(rs, mServed).cell(fInt), of(rs, mShare).cell(func(v float64) string { return fmt.Sprintf("%.2f", v) }),
				of(rs, mCPUM).cell(fSig), of(rs, mRSS).cell(fMB), of(rs, mP50).cell(fSig), of(rs, mP99).cell(fSig), of(rs, mCount).cell(fInt)}
		})
		p.table([]string{"tool", "req/s", "% of rate", "CPU s/1M", "RSS MB", "p50 ms", "p99 ms", "server count"}, rows)
	}
}

func (p *report) scenario4() {
	const scen, cs = "4", "delay2ms"
	if len(p.tools(scen, cs)) == 0 {
		return
	}
	p.pf("## 4. Latency fidelity: target delays every answer 2 ms, 20,000 req/s, 100 connections\n\n")
	p.pf("The truth is 2 ms plus the loopback round trip and the tester's own overhead; the columns show what each tool reports above 2 ms.\n\n")
	minus2 := func(m func(*Run) (float64, bool)) func(*Run) (float64, bool) {
		return func(r *Run) (float64, bool) { v, ok := m(r); return v - 2, ok }
	}
	rows := p.perTool(scen, cs, func(rs []*Run) []string {
		return []string{of(rs, minus2(mP50)).cell(fSig), of(rs, minus2(mP99)).cell(fSig), of(rs, mServed).cell(fInt), of(rs, mCPUM).cell(fSig)}
	})
	p.table([]string{"tool", "p50 − 2 ms", "p99 − 2 ms", "req/s", "CPU s/1M"}, rows)
}

// dashboardDelta pairs scenario 7's runs by repetition: dashboard CPU minus headless CPU, in % of a core.
func (p *report) dashboardDelta() Spread {
	head := map[int]*Run{}
	for _, r := range p.runs("7", "dashboard", "rpcstress-headless") {
		head[r.Rep] = r
	}
	var xs []float64
	for _, r := range p.runs("7", "dashboard", "rpcstress-dashboard") {
		if h := head[r.Rep]; h != nil && h.CPU > 0 && r.CPU > 0 {
			xs = append(xs, 100*(r.CPU-h.CPU)/r.Seconds)
		}
	}
	return spread(xs)
}

func (p *report) scenario7() {
	const scen, cs = "7", "dashboard"
	if len(p.tools(scen, cs)) == 0 {
		return
	}
	p.pf("## 7. rpcstress's dashboard overhead: 20,000 req/s, 50 connections, dashboard in an 80x24 tmux pane vs --headless\n\n")
	rows := p.perTool(scen, cs, func(rs []*Run) []string {
		return []string{of(rs, func(r *Run) (float64, bool) { return r.CPU, r.CPU > 0 }).cell(fSig), of(rs, mCPUPct).cell(func(v float64) string { return fmt.Sprintf("%.1f", v) }),
			of(rs, mCPUM).cell(fSig), of(rs, mRSS).cell(fMB), of(rs, mServed).cell(fInt)}
	})
	p.table([]string{"mode", "CPU s", "CPU % of a core", "CPU s/1M", "RSS MB", "req/s"}, rows)
	if d := p.dashboardDelta(); d.N > 0 {
		p.pf("Dashboard minus headless, paired by repetition: **%s %% of a core** (tmux's own CPU is not counted).\n\n",
			d.cell(func(v float64) string { return fmt.Sprintf("%+.1f", v) }))
	}
}
