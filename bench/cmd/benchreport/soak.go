package main

import (
	"fmt"
	"math"
)

// soakWarmup is when a soak's memory is taken as settled: by then every connection is open and
// every buffer pool and histogram allocated, so later growth is growth with the request count.
const soakWarmup = 60.0

// soakFlatShare is the growth after warm-up, as a share of the settled resident set, that still
// counts as flat: allocator and GC noise moves RSS a few per cent either way.
const soakFlatShare = 0.05

// Soak is what scenario 8's one long run says about memory.
type Soak struct {
	Run            *Run
	Settled, Final float64 // KiB: the first sample at or after soakWarmup, and the last
	Peak           float64 // KiB, the highest sample
	Growth         float64 // (Final - Settled) / Settled
}

// Flat reports whether the resident set stayed within soakFlatShare of its settled size.
func (s Soak) Flat() bool { return s.Growth <= soakFlatShare }

// soak finds scenario 8's run and derives its memory figures; ok is false when the run is
// missing or too short to have settled.
func (p *report) soak() (Soak, bool) {
	rs := p.runs("8", "soak", "rpcstress")
	if len(rs) == 0 || len(rs[0].RSS) == 0 {
		return Soak{}, false
	}
	r := rs[0]
	s := Soak{Run: r, Settled: math.NaN()}
	for _, pt := range r.RSS {
		if pt.T >= soakWarmup && math.IsNaN(s.Settled) {
			s.Settled = pt.KB
		}
		s.Peak = math.Max(s.Peak, pt.KB)
	}
	if math.IsNaN(s.Settled) {
		return Soak{}, false
	}
	s.Final = r.RSS[len(r.RSS)-1].KB
	s.Growth = (s.Final - s.Settled) / s.Settled
	return s, true
}

func (p *report) scenario8() {
	s, ok := p.soak()
	if !ok {
		return
	}
	r := s.Run
	p.pf("## 8. Memory over a long run: rpcstress at 20,000 req/s, 50 connections, %s s\n\n", fInt(r.Seconds))
	p.pf("The tester's resident set (VmRSS) sampled every few seconds; settled = the first sample at or after %.0f s. "+
		"Flat means the last sample is at most %.0f %% above the settled one.\n\n", soakWarmup, 100*soakFlatShare)
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
	p.pf("Settled %s MB, final %s MB (%+.1f %%), peak %s MB; the target served %s requests (%s req/s), tester CPU %s s/1M.\n\n",
		fMB(s.Settled), fMB(s.Final), 100*s.Growth, fMB(s.Peak), fInt(r.Served), fInt(r.ServedRate()), fSig(r.CPUPerM()))
}
