package main

import "fmt"

func (p *report) scenario1() {
	const scen, cs = "1", "closed"
	if !p.section(scen, cs, "## 1. Closed loop, 50 connections, max throughput\n\n") {
		return
	}
	p.toolTable(scen, cs, "tool", spreadOf("req/s", mServed, fInt), spreadOf("tool req/s", mToolRPS, fInt),
		spreadOf("CPU s/1M", mCPUM, fSig), spreadOf("RSS MB", mRSS, fMB), spreadOf("p50 ms", mP50, fSig), spreadOf("p99 ms", mP99, fSig),
		spreadOf("server count", mCount, fInt), spreadOf("target CPU %", mTgtCPU, fInt))
}

func (p *report) scenario2() {
	const scen = "2"
	if len(p.cases(scen)) == 0 {
		return
	}
	p.pf("## 2. Fixed rate, 50 connections\n\n")
	for _, cs := range p.cases(scen) {
		p.pf("### %s req/s\n\n", fInt(mustFloat(cs)))
		p.toolTable(scen, cs, "tool", spreadOf("req/s", mServed, fInt), spreadOf("% of rate", mShare, func(v float64) string { return fmt.Sprintf("%.2f", v) }),
			spreadOf("CPU s/1M", mCPUM, fSig), spreadOf("RSS MB", mRSS, fMB), spreadOf("p50 ms", mP50, fSig), spreadOf("p99 ms", mP99, fSig),
			spreadOf("server count", mCount, fInt))
	}
}

func (p *report) scenario4() {
	const scen, cs = "4", "delay2ms"
	if !p.section(scen, cs, "## 4. Latency fidelity: target delays every answer 2 ms, 20,000 req/s, 100 connections\n\n"+
		"The truth is 2 ms plus the loopback round trip and the tester's own overhead; the columns show what each tool reports above 2 ms.\n\n") {
		return
	}
	minus2 := func(m func(*Run) (float64, bool)) func(*Run) (float64, bool) {
		return func(r *Run) (float64, bool) { v, ok := m(r); return v - 2, ok }
	}
	p.toolTable(scen, cs, "tool", spreadOf("p50 − 2 ms", minus2(mP50), fSig), spreadOf("p99 − 2 ms", minus2(mP99), fSig),
		spreadOf("req/s", mServed, fInt), spreadOf("CPU s/1M", mCPUM, fSig))
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
	if !p.section(scen, cs, "## 7. rpcstress's dashboard overhead: 20,000 req/s, 50 connections, dashboard in an 80x24 tmux pane vs --headless\n\n") {
		return
	}
	p.toolTable(scen, cs, "mode", spreadOf("CPU s", mCPU, fSig), spreadOf("CPU % of a core", mCPUPct, func(v float64) string { return fmt.Sprintf("%.1f", v) }),
		spreadOf("CPU s/1M", mCPUM, fSig), spreadOf("RSS MB", mRSS, fMB), spreadOf("req/s", mServed, fInt))
	if d := p.dashboardDelta(); d.N > 0 {
		p.pf("Dashboard minus headless, paired by repetition: **%s %% of a core** (tmux's own CPU is not counted).\n\n",
			d.cell(func(v float64) string { return fmt.Sprintf("%+.1f", v) }))
	}
}
