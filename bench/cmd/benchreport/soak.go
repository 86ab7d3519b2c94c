package main

import (
	"fmt"
	"math"
)

// soakWarmup is when a soak's memory is taken as settled: by then every connection is open and
// every buffer pool and histogram allocated, so later growth is growth with the request count.
const soakWarmup = 60.0

// soakFlatShare is how much the resident set may trend up after warm-up, as a share of its mean,
// and still count as flat. The garbage collector makes RSS swing a few MB either way from one
// sample to the next, so a single sample says little; a leak shows as a trend, so the growth is
// the least-squares slope over all samples after warm-up times the time they span.
const soakFlatShare = 0.05

// Soak is what scenario 8's one long run says about memory.
type Soak struct {
	Run         *Run
	Mean, Peak  float64 // KiB, over the samples after warm-up (the peak over all of them)
	Final       float64 // KiB, the last sample
	Trend       float64 // KiB the fitted line rises from the first sample after warm-up to the last
	Span        float64 // seconds from the first sample after warm-up to the last
	Growth      float64 // Trend / Mean
	SamplesUsed int
}

// Flat reports whether the resident set trended up by at most soakFlatShare of its mean.
func (s Soak) Flat() bool { return s.Growth <= soakFlatShare }

// soak finds scenario 8's run and derives its memory figures; ok is false when the run is
// missing or too short to have a trend after warm-up.
func (p *report) soak() (Soak, bool) {
	rs := p.runs("8", "soak", "rpcstress")
	if len(rs) == 0 || len(rs[0].RSS) == 0 {
		return Soak{}, false
	}
	r := rs[0]
	s := Soak{Run: r, Final: r.RSS[len(r.RSS)-1].KB}
	var n, sx, sy, sxx, sxy float64
	first := -1.0
	for _, pt := range r.RSS {
		s.Peak = math.Max(s.Peak, pt.KB)
		if pt.T < soakWarmup {
			continue
		}
		if first < 0 {
			first = pt.T
		}
		n++
		sx, sy, sxx, sxy = sx+pt.T, sy+pt.KB, sxx+pt.T*pt.T, sxy+pt.T*pt.KB
		s.Span = pt.T - first
	}
	if n < 3 || s.Span <= 0 {
		return Soak{}, false
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	s.SamplesUsed = int(n)
	s.Mean = sy / n
	s.Trend = slope * s.Span
	s.Growth = s.Trend / s.Mean
	return s, true
}

func (p *report) scenario8() {
	s, ok := p.soak()
	if !ok {
		return
	}
	r := s.Run
	p.pf("## 8. Memory over a long run: rpcstress at 20,000 req/s, 50 connections, %s s\n\n", fInt(r.Seconds))
	p.pf("The tester's resident set (VmRSS), sampled every few seconds (every 30 s shown). After a %.0f s warm-up, "+
		"the least-squares trend over the %d samples that follow must rise at most %.0f %% of their mean for the memory "+
		"to count as flat: the garbage collector swings RSS a few MB between samples, a leak shows as a trend.\n\n",
		soakWarmup, s.SamplesUsed, 100*soakFlatShare)
	var rows [][]string
	next := 0.0
	for i, pt := range r.RSS {
		if pt.T+0.5 < next && i != len(r.RSS)-1 {
			continue
		}
		rows = append(rows, []string{fmt.Sprintf("%.0f", pt.T), fMB(pt.KB)})
		for next <= pt.T+0.5 {
			next += 30
		}
	}
	p.table([]string{"seconds", "RSS MB"}, rows)
	p.pf("After warm-up: mean %s MB, peak %s MB, trend %+.2f MB over %.0f s (%+.1f %% of the mean); final %s MB. "+
		"The target served %s requests (%s req/s); tester CPU %s s/1M.\n\n",
		fMB(s.Mean), fMB(s.Peak), s.Trend/1024, s.Span, 100*s.Growth, fMB(s.Final), fInt(r.Served), fInt(r.ServedRate()), fSig(r.CPUPerM()))
}
