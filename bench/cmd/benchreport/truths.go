package main

import (
	"fmt"
	"math"
)

// stallTruth is the true p99 in ms for scenario 5 over a run of secs seconds: stalls hold every
// answer during [2k−0.2 s, 2k s) after the first request. A request intended t ms into a stall
// waits 200−t ms, so the stalled share f of all requests has latencies uniform on (0, 200] ms and
// the rest ~0: P(latency > x) = f·(200−x)/200, and the p99 is x = 200·(1 − 0.01/f).
func stallTruth(secs float64) float64 {
	var stalled float64
	for k := 1.0; 2*k-0.2 < secs; k++ {
		stalled += math.Min(2*k, secs) - (2*k - 0.2)
	}
	f := stalled / secs
	if f <= 0.01 {
		return 0
	}
	return 200 * (1 - 0.01/f)
}

func (p *report) scenario5() {
	const scen, cs = "5", "stall"
	first := p.firstRun(scen, cs)
	if first == nil {
		return
	}
	secs, conns := first.Seconds, first.Conns
	truth := stallTruth(secs)
	p.pf("## 5. Coordinated omission: the target stalls 200 ms every 2 s, 1,000 req/s, %d connections\n\n", conns)
	p.pf("**The truth.** The target holds every answer during the last 200 ms of each 2 s, counted from the first request "+
		"(windows [1.8 s, 2.0 s), [3.8 s, 4.0 s), …). An open-loop sender intends requests evenly, so over a %s s run a share f = %.1f %% of them is "+
		"intended inside a stall; one intended t ms into a stall waits 200 − t ms (the queue behind it drains in well under a millisecond), so "+
		"their latencies are uniform on (0, 200] ms (mean 100 ms) and all others are the ~0.1 ms service time. "+
		"Then P(latency > x) = f · (200 − x)/200, and the p99 solves f · (200 − x)/200 = 0.01: **p99 = 200 · (1 − 0.01/f) = %s ms** "+
		"(f = 10 %% gives 180 ms), p50 ≈ the service time, mean ≈ f · 100 ms. "+
		"A tool that measures from the actual send instead (coordinated omission) reports only the few requests caught on a connection during the stall.\n\n",
		fNum(secs), 100*stalledShare(secs), fSig(truth))
	p.pf("**Why %d connections.** A tool that waits for a free connection before it sends (and times from that send) still "+
		"records one held request per connection per stall: c of the 2,000 requests of every 2 s, each waiting between 200 − c and 200 ms. With "+
		"50 connections that is 2.5 %% of all requests, so even such a tool lands its p99 near 180 ms by accident; below 20 "+
		"connections (under 1 %%) its p99 shows only the service time, and only a tool that times from the intended send "+
		"reports the truth. At 1,000 req/s and ~0.1 ms service time, %d connections carry the load with room to spare.\n\n", conns, conns)
	p.pf("oha-corrected is oha with `--latency-correction`.\n\n")
	off := func(r *Run) (float64, bool) { return 100 * (r.Out.P99 - truth) / truth, r.Out.HasLat && truth > 0 }
	p.toolTable(scen, cs, "tool", spreadOf("p50 ms", mP50, fSig), spreadOf("p99 ms", mP99, fSig),
		column{"true p99 ms", func([]*Run) string { return fSig(truth) }},
		spreadOf("p99 off the truth", off, func(v float64) string { return fmt.Sprintf("%+.1f %%", v) }), spreadOf("server count", mCount, fInt))
}

func stalledShare(secs float64) float64 {
	t := stallTruth(secs)
	if t == 0 {
		return 0
	}
	return 0.01 / (1 - t/200)
}

// bucketIdeal is the most 200s a token bucket of 1000/s, burst 10, starting full, can give in secs.
func bucketIdeal(secs float64) float64 { return 1000*secs + 10 }

func (p *report) scenario6() {
	const scen, cs = "6", "bucket"
	first := p.firstRun(scen, cs)
	if first == nil {
		return
	}
	secs := first.Seconds
	ideal := bucketIdeal(secs)
	p.pf("## 6. Limiter fairness: token bucket 1,000/s burst 10 (429 over it), tester at 2,000 req/s, 50 connections\n\n")
	p.pf("Ideal: the bucket starts full (10) and refills 1,000 a second, so evenly spread sends get %s answers 200 in %s s; bursty senders find the bucket empty more often and get fewer.\n\n",
		fInt(ideal), fNum(secs))
	ofIdeal := func(r *Run) (float64, bool) { return 100 * r.Served200 / ideal, true }
	p.toolTable(scen, cs, "tool", spreadOf("200s (server)", m200, fInt), spreadOf("429s (server)", m429, fInt),
		spreadOf("200s / ideal", ofIdeal, func(v float64) string { return fmt.Sprintf("%.2f %%", v) }), spreadOf("server count", mCount, fInt))
}
