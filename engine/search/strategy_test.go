package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// runFake runs a whole search against a model on a fake clock.
func runFake(t *testing.T, cfg Config, m model) (*Outcome, *fakeProber) {
	t.Helper()
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	fp := &fakeProber{clock: clock, m: m, gap: 50 * time.Millisecond}
	s, err := New(cfg, fp, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out, fp
}

func cfgWith(start, max engine.Rate, settle, probe, budget time.Duration, slo SLO) Config {
	c := DefaultConfig()
	c.Start, c.Max, c.Settle, c.Probe, c.Budget, c.SLO = start, max, settle, probe, budget, slo
	return c
}

var defaultSLO = SLO{Percentile: 99, MaxLimitedPct: 1, MaxFailedPct: 0.1}

func TestSearchAgainstOracles(t *testing.T) {
	p99 := func(d time.Duration) SLO { s := defaultSLO; s.Latency = d; return s }
	tests := []struct {
		name       string
		cfg        Config
		model      model
		end        string
		lo, hi     float64 // the answer (highest good) must be in [lo, hi]
		badBelow   float64 // the first bad rate must be below this (0: no first bad expected)
		maxProbes  int
		wantProbes []float64 // exact sequence, when it matters
	}{
		// A limiter at 1000/s with burst 60 fills at once: double 250→2000, the accepted rate
		// (1000) points at the limit, one closing probe at 1050 brackets it within 5 %.
		{"bucket 1000/s burst 60", cfgWith(250, 50000, 2*time.Second, 10*time.Second, 5*time.Minute, defaultSLO),
			&bucket{rate: 1000, burst: 60}, EndConverged, 950, 1010, 1060, 6, []float64{250, 500, 1000, 2000, 1050}},
		// 240/m burst 60: at 8/s the bucket absorbs a 4 s probe (no 429 yet), so 8/s passes
		// though it cannot be held; the accepted rate of later probes (4/s) contradicts it, a
		// confirm probe at 8/s fails, the pass is superseded, and the limit is found at 4/s.
		{"bucket 240/m burst 60 absorbs short probes", cfgWith(2, 50000, time.Second, 3*time.Second, 5*time.Minute, defaultSLO),
			&bucket{rate: 4, burst: 60}, EndConverged, 3.8, 4.05, 4.4, 10, nil},
		// A delaying limiter (100/s burst 60) is empty at the start of every probe, so a 4 s probe
		// at 105/s passes (the burst absorbs it) until the bucket is filled first: once 429s
		// showed the limiter, every probe is prefilled and 105/s fails as it should.
		{"delaying bucket empty at each probe", cfgWith(25, 50000, time.Second, 3*time.Second, 5*time.Minute, defaultSLO),
			&delayingBucket{bucket{rate: 100, burst: 60}}, EndConverged, 95, 101, 106, 6, []float64{25, 50, 100, 200, 105}},
		// Starting far above a limiter: the first probe fails with 429s; its accepted rate is
		// probed next instead of halving from 100 down.
		{"start above the limit", cfgWith(100, 50000, 2*time.Second, 10*time.Second, 5*time.Minute, defaultSLO),
			&bucket{rate: 4, burst: 10}, EndConverged, 3.8, 4.05, 4.4, 5, nil},
		// A capacity knee at 1500/s with p99 ≤ 20 ms: plain doubling and bisection.
		{"latency knee 1500/s", cfgWith(200, 50000, time.Second, 3*time.Second, 5*time.Minute, p99(20*time.Millisecond)),
			&knee{capacity: 1500, base: 2}, EndConverged, 1500 * 0.95, 1500, 1500 * 1.06, 10, nil},
		// The budget (40 s) holds three 12 s probes: the answer is the best so far, 400/s.
		{"budget exhausted", cfgWith(100, 50000, 2*time.Second, 10*time.Second, 40*time.Second, defaultSLO),
			&bucket{rate: 1000, burst: 60}, EndBudget, 400, 400, 0, 3, []float64{100, 200, 400}},
		// Nothing meets the SLO (every answer fails): halve down to start/16, then give up.
		{"SLO never met at start", cfgWith(1000, 50000, time.Second, 2*time.Second, 5*time.Minute, defaultSLO),
			constant{failShare: 1}, EndNeverMet, 0, 0, 63, 5, []float64{1000, 500, 250, 125, 62.5}},
		// Everything passes: double up to the maximum, stop there.
		{"never broken up to max", cfgWith(100, 1000, time.Second, 2*time.Second, 5*time.Minute, defaultSLO),
			constant{}, EndMax, 1000, 1000, 0, 5, []float64{100, 200, 400, 800, 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, fp := runFake(t, tt.cfg, tt.model)
			a := out.Result.Answer
			t.Logf("probes %v; end %s; answer %s", fp.rates, out.Result.EndReason, a.Text)
			if out.Result.EndReason != tt.end {
				t.Errorf("end reason %q, want %q", out.Result.EndReason, tt.end)
			}
			if tt.hi > 0 && (!a.Found || a.Rate < tt.lo || a.Rate > tt.hi) {
				t.Errorf("answer %v (found %v), want within [%v, %v]", a.Rate, a.Found, tt.lo, tt.hi)
			}
			if tt.hi == 0 && a.Found {
				t.Errorf("answer %v found, want none", a.Rate)
			}
			switch {
			case tt.badBelow == 0 && a.FirstBad != 0:
				t.Errorf("first bad %v, want none", a.FirstBad)
			case tt.badBelow > 0 && (a.FirstBad == 0 || a.FirstBad >= tt.badBelow):
				t.Errorf("first bad %v, want below %v", a.FirstBad, tt.badBelow)
			}
			if len(fp.rates) > tt.maxProbes {
				t.Errorf("%d probes, want at most %d", len(fp.rates), tt.maxProbes)
			}
			if tt.wantProbes != nil && !slices.Equal(fp.rates, tt.wantProbes) {
				t.Errorf("probes %v, want %v", fp.rates, tt.wantProbes)
			}
			if tt.end == EndConverged && a.GapPct > tt.cfg.PrecisionPct+1e-9 {
				t.Errorf("converged with a gap of %v%%, precision %v%%", a.GapPct, tt.cfg.PrecisionPct)
			}
			if len(out.Result.Probes) != len(out.Measures) {
				t.Errorf("%d probe records for %d measures", len(out.Result.Probes), len(out.Measures))
			}
		})
	}
}

// TestSearchBudgetIsHard: on the fake clock, no probe ends after the budget.
func TestSearchBudgetIsHard(t *testing.T) {
	cfg := cfgWith(100, 50000, 2*time.Second, 10*time.Second, 60*time.Second, defaultSLO)
	out, _ := runFake(t, cfg, &knee{capacity: 1e9, base: 1})
	if el := out.Ended.Sub(out.Started); el > cfg.Budget {
		t.Errorf("the search took %s, budget %s", el, cfg.Budget)
	}
	if n := len(out.Result.Probes); n != 4 { // 4 × 12.05 s fit in 60 s, a fifth does not
		t.Errorf("%d probes in 60 s of 12.05 s probes, want 4", n)
	}
}

// TestSearchStop: Stop during a probe ends the search; the stopped probe is recorded but not
// judged, and the answer is the best so far.
func TestSearchStop(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	var s *Searcher
	fp := &stopAfter{fakeProber: fakeProber{clock: clock, m: constant{}}, n: 3, stop: func() { s.Stop() }}
	s, _ = New(cfgWith(100, 50000, time.Second, 2*time.Second, time.Hour, defaultSLO), fp, clock.now)
	out, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := out.Result.Probes
	if out.Result.EndReason != EndStopped || len(p) != 3 || p[2].Verdict != "stopped" {
		t.Fatalf("end %q, probes %+v", out.Result.EndReason, p)
	}
	if a := out.Result.Answer; !a.Found || a.Rate != 200 {
		t.Errorf("answer %+v, want the best so far: 200/s", a)
	}
	if !s.Progress().Stopping || s.Progress().Result == nil {
		t.Error("the progress view does not show the stop and the result")
	}
}

// stopAfter stops the search during its n-th probe.
type stopAfter struct {
	fakeProber
	n    int
	stop func()
}

func (s *stopAfter) Probe(ctx context.Context, spec ProbeSpec) (Measure, error) {
	m, err := s.fakeProber.Probe(ctx, spec)
	if len(s.rates) == s.n {
		s.stop()
	}
	return m, err
}

// TestStrategySupersedes: the latest probe wins over earlier ones it contradicts.
func TestStrategySupersedes(t *testing.T) {
	s := newStrategy(cfgWith(100, 1000, 0, time.Second, time.Hour, defaultSLO))
	s.add(result{rate: 100, pass: true})
	s.add(result{rate: 200, pass: true})
	s.add(result{rate: 400, pass: false})
	s.add(result{rate: 150, pass: false}) // 200 passed before, but 150 fails now
	good, bad := s.bounds()
	if good != 100 || bad != 150 || !s.results[1].superseded {
		t.Errorf("bounds [%v, %v], results %+v; want [100, 150] with 200 superseded", good, bad, s.results)
	}
	s.add(result{rate: 150, pass: true}) // and now it passes again: the fails at ≤150 go
	if good, bad = s.bounds(); good != 150 || bad != 400 {
		t.Errorf("bounds [%v, %v], want [150, 400]", good, bad)
	}
}

func TestRoundSig(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{4.0404, 4.04},     // three digits
		{1049.99, 1050},    // carries
		{14.85, 14.9},      // rounds half away
		{0.012345, 0.0123}, // small rates
	} {
		if got := roundSig(tt.in, 3); got != tt.want {
			t.Errorf("roundSig(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestAnswerTesterLimited: the answer blames the tester only when the first bad probe failed
// by the tester clause alone; one that was also rate-limited found the node's limit.
func TestAnswerTesterLimited(t *testing.T) {
	limited := engine.SearchBreach{Clause: "limited", Text: "limited 9.52% > 1%"}
	tester := engine.SearchBreach{Clause: "tester", Text: "tester: saturated for 3 of 5 s"}
	for _, tt := range []struct {
		name     string
		breaches []engine.SearchBreach
		want     bool
	}{
		{"limited and tester", []engine.SearchBreach{limited, tester}, false},
		{"tester alone", []engine.SearchBreach{tester}, true},
		{"limited alone", []engine.SearchBreach{limited}, false},
	} {
		st := newStrategy(DefaultConfig())
		st.add(result{rate: 4, pass: true, step: stepDouble})
		st.add(result{rate: 4.2, pass: false, step: stepClose})
		probes := []engine.SearchProbe{
			{N: 1, Rate: 4, Verdict: "pass", Goodput: 4},
			{N: 2, Rate: 4.2, Verdict: "fail", Breaches: tt.breaches},
		}
		a := answer(st, probes, EndConverged)
		if a.TesterLimited != tt.want || strings.Contains(a.Text, "the tester's, not the node's") != tt.want {
			t.Errorf("%s: tester limited %v, text %q; want %v", tt.name, a.TesterLimited, a.Text, tt.want)
		}
	}
}

// TestSearchNoisyKnee: the knee of TestSearchAgainstOracles with ±30 % noise on every p99, so
// that a probe well below the knee fails now and then (16 ms × 1.3 > 20 ms). Contradictions are
// superseded (the latest wins) and a lone failure is checked again, so over 200 noise sequences
// at least three answers in four are within 15 % of the knee (without the recheck: 137 of 200).
func TestSearchNoisyKnee(t *testing.T) {
	slo := defaultSLO
	slo.Latency = 20 * time.Millisecond
	in := 0
	for seed := uint64(1); seed <= 200; seed++ {
		out, fp := runFake(t, cfgWith(200, 50000, time.Second, 3*time.Second, 5*time.Minute, slo),
			&knee{capacity: 1500, base: 16, noise: 0.3, rng: rand.New(rand.NewPCG(seed, 2))})
		if a := out.Result.Answer; a.Found && a.Rate >= 1500*0.85 && a.Rate <= 1500*1.05 {
			in++
		}
		if len(fp.rates) > 16 {
			t.Errorf("seed %d: %d probes %v", seed, len(fp.rates), fp.rates)
		}
	}
	if in < 150 {
		t.Errorf("%d of 200 answers within 15%% of the knee, want at least 150", in)
	}
}

// spiky is a model with one load spike: the first probe at rate (its settle and measured
// windows) sees a p99 twenty times what the model says, as on a machine busy for a moment.
type spiky struct {
	model
	rate float64
	left int
}

func (s *spiky) window(r, t float64) (ok, limited, failed, p99 float64) {
	ok, limited, failed, p99 = s.model.window(r, t)
	if r == s.rate && s.left > 0 {
		s.left--
		p99 *= 20
	}
	return ok, limited, failed, p99
}

// TestSearchRechecksLoneFailure: a spike fails the probe at 800/s of a node whose knee is
// 1500/s. Alone between passing probes, that failure is run again; the recheck passes,
// supersedes it, and the search goes on to find the knee (before, it bisected under 800/s and
// answered 775/s). A failure that is confirmed stands: the knee's own failure at 1600/s is
// rechecked once and bisection follows.
func TestSearchRechecksLoneFailure(t *testing.T) {
	slo := defaultSLO
	slo.Latency = 20 * time.Millisecond
	out, fp := runFake(t, cfgWith(200, 50000, time.Second, 3*time.Second, 5*time.Minute, slo),
		&spiky{model: &knee{capacity: 1500, base: 2}, rate: 800, left: 2})
	a, p := out.Result.Answer, out.Result.Probes
	t.Logf("probes %v: %s", fp.rates, a.Text)
	if !a.Found || a.Rate < 1500*0.95 || a.Rate > 1500 {
		t.Errorf("answer %v/s, want the knee, 1500/s, within 5 %%", a.Rate)
	}
	if len(p) < 4 || p[2].Rate != 800 || p[2].Verdict != "fail" || !p[2].Superseded ||
		p[3].Rate != 800 || p[3].Step != stepRecheck || p[3].Verdict != "pass" {
		for _, q := range p {
			t.Logf("probe %d %s %v/s: %s (superseded %v)", q.N, q.Step, q.Rate, q.Verdict, q.Superseded)
		}
		t.Fatal("want 800/s failed by the spike, then rechecked and passed")
	}
	rechecks := 0
	for _, q := range p {
		if q.Step == stepRecheck {
			rechecks++
		}
	}
	if rechecks != 2 {
		t.Errorf("%d rechecks, want 2 (800/s, then the knee's first failure)", rechecks)
	}
}

// TestSearchNoRecheckOfLimiter: a failure with rate-limited answers is a limiter's verdict, not
// a spike: no recheck (the limiter searches of TestSearchAgainstOracles keep their probes).
func TestSearchNoRecheckOfLimiter(t *testing.T) {
	_, fp := runFake(t, cfgWith(250, 50000, 2*time.Second, 10*time.Second, 5*time.Minute, defaultSLO), &bucket{rate: 1000, burst: 60})
	if !slices.Equal(fp.rates, []float64{250, 500, 1000, 2000, 1050}) {
		t.Errorf("probes %v, want 250 500 1000 2000 1050", fp.rates)
	}
}
