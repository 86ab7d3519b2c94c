package search

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestLimiterInference: the limiter estimate after a whole search against oracles, burst probe
// included.
func TestLimiterInference(t *testing.T) {
	tests := []struct {
		name  string
		cfg   Config
		model model
		want  engine.LimiterEstimate // Kind always; Rate, Burst and Nginx when set
	}{
		// nginx limit_req rate=1000r/s burst=60 nodelay: the plateau gives the rate to the
		// request; the burst probe (after an idle gap) gives the burst.
		{"1000/s burst 60", cfgWith(250, 50000, 2*time.Second, 10*time.Second, 5*time.Minute, defaultSLO),
			&bucket{rate: 1000, burst: 60}, engine.LimiterEstimate{Kind: "token bucket", Rate: 1000, Burst: 60, Nginx: "rate=1000r/s burst=60 nodelay"}},
		// 240/m burst 60: the burst needs a 22 s gap to drain, within the budget.
		{"240/m burst 60", cfgWith(2, 50000, time.Second, 3*time.Second, 5*time.Minute, defaultSLO),
			&bucket{rate: 4, burst: 60}, engine.LimiterEstimate{Kind: "token bucket", Rate: 4, Burst: 60, Nginx: "rate=240r/m burst=60 nodelay"}},
		// A limiter that rejects half of what is offered above 100/s: 429s, but the accepted
		// rate grows with the offered one.
		{"share dropper", cfgWith(100, 50000, time.Second, 3*time.Second, 5*time.Minute, defaultSLO),
			shareDropper{above: 150, share: 0.5}, engine.LimiterEstimate{Kind: "not a token bucket"}},
		// A node that only slows down: no limiter.
		{"no limiter", cfgWith(200, 50000, time.Second, 3*time.Second, 5*time.Minute, SLO{Percentile: 99, Latency: 20 * time.Millisecond, MaxLimitedPct: 1, MaxFailedPct: 0.1}),
			&knee{capacity: 1500, base: 2}, engine.LimiterEstimate{Kind: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := runFake(t, tt.cfg, tt.model)
			l := out.Result.Limiter
			if l == nil {
				t.Fatal("no limiter estimate")
			}
			t.Logf("%+v", *l)
			want := tt.want
			if l.Kind != want.Kind {
				t.Errorf("kind %q, want %q; notes %s", l.Kind, want.Kind, strings.Join(l.Notes, " | "))
			}
			if want.Rate > 0 && math.Abs(l.Rate-want.Rate) > l.RateErr+want.Rate*0.01 {
				t.Errorf("rate %v ± %v, want %v", l.Rate, l.RateErr, want.Rate)
			}
			if want.Burst > 0 && (math.Abs(l.Burst-want.Burst) > l.BurstErr || l.BurstAtLeast) {
				t.Errorf("burst %v ± %v (at least: %v), want %v", l.Burst, l.BurstErr, l.BurstAtLeast, want.Burst)
			}
			if want.Nginx != "" && l.Nginx != want.Nginx {
				t.Errorf("nginx %q, want %q", l.Nginx, want.Nginx)
			}
		})
	}
}

func TestRoundest(t *testing.T) {
	for _, tt := range []struct {
		v, tol float64
		want   string
	}{
		{233.3, 10, "240"},    // 3.89 ± 0.67/s as per minute: 240r/m
		{999.8, 0.17, "1000"}, // within a fraction of a request
		{59.6, 1.1, "60"},     // burst 59.6 ± 4.5
		{57, 0.5, "57"},       // no rounder number that close
		{0.4, 0.1, "0"},       // whole numbers only
	} {
		if got := roundest(tt.v, tt.tol); got != tt.want {
			t.Errorf("roundest(%v, %v) = %s, want %s", tt.v, tt.tol, got, tt.want)
		}
	}
}

// TestPlanBurst: the burst probe's gap lets the guessed bucket drain with room to spare, and
// its window exhausts twice the guess.
func TestPlanBurst(t *testing.T) {
	for _, tt := range []struct {
		rate, guess float64
		gap         time.Duration
	}{
		{1000, 60, time.Second},           // a small bucket drains in 60 ms: the 1 s floor
		{4, 60, 18750 * time.Millisecond}, // 60 / 4/s = 15 s, × 1.25
		{100, 0, time.Second},             // no guess: assume half a second of rate
	} {
		p := planBurst(tt.rate, tt.guess, 50000)
		if p.gap != tt.gap.Round(100*time.Millisecond) {
			t.Errorf("rate %v guess %v: gap %s, want %s", tt.rate, tt.guess, p.gap, tt.gap)
		}
		if exhaust := (p.rate - tt.rate) * p.window.Seconds(); exhaust < 2*tt.guess {
			t.Errorf("rate %v guess %v: the burst %v for %s exhausts %v, want ≥ %v", tt.rate, tt.guess, p.rate, p.window, exhaust, 2*tt.guess)
		}
	}
}

// TestDelayMode: a queueing limiter holds the accepted answers of a burst, not the rejected
// ones; a slow tester delays both alike.
func TestDelayMode(t *testing.T) {
	m := func(ok, lim float64) *Measure {
		return &Measure{Summary: engine.Summary{LatencyByOutcome: map[string]engine.Percentiles{"ok": {P50: ok}, "limited": {P50: lim}}}}
	}
	for _, tt := range []struct {
		name        string
		m           *Measure
		burst, rate float64
		want        string
	}{
		{"nginx default: accepted wait up to 60 ms", m(45, 1), 60, 1000, "delay"},
		{"nodelay", m(1.2, 1), 60, 1000, "nodelay"},
		{"nodelay with a tester 80 ms behind", m(81, 80), 60, 1000, "nodelay"},
		{"a wait too short to tell", m(3, 1), 5, 1000, ""},
	} {
		if got := delayMode(tt.m, tt.burst, tt.rate); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestLimiterNoneButLevelledOff: no 429 at all, but a probe accepted clearly less than it
// offered (a delaying nginx limit_req whose queue outlasts the timeout: 4.8 ok/s at 8/s, the
// rest timed out). "No limiter detected" alone would be wrong; the note says what it may be.
func TestLimiterNoneButLevelledOff(t *testing.T) {
	s := &Searcher{cfg: DefaultConfig()}
	probe := func(rate, goodput float64, verdict string, failed int64) engine.SearchProbe {
		return engine.SearchProbe{Rate: rate, Goodput: goodput, MeasureS: 5, Verdict: verdict,
			Summary: engine.Summary{OK: int64(goodput * 5), Failed: failed, Completed: int64(goodput*5) + failed}}
	}
	probes := []engine.SearchProbe{probe(4, 4, "pass", 0), probe(8, 4.8, "fail", 16), probe(5.75, 5.8, "pass", 0)}
	l, _ := s.inferLimiter(context.Background(), probes, nil, time.Now())
	if l == nil || l.Kind != "none" || len(l.Notes) != 2 || !strings.Contains(l.Notes[1], "4.8 ok/s at 8/s") {
		t.Errorf("limiter %+v; want none, with a note that the accepted rate levelled off at 4.8 ok/s", l)
	}
	// A node that answers everything it gets, only slower: no such note.
	probes = []engine.SearchProbe{probe(800, 800, "pass", 0), probe(1600, 1600, "fail", 0)}
	if l, _ := s.inferLimiter(context.Background(), probes, nil, time.Now()); l == nil || len(l.Notes) != 1 {
		t.Errorf("limiter %+v; want only the no-limiter note", l)
	}
}

// TestLimiterQueueingNote: no 429 at all, but probes failed the backlog clause with answers
// coming back at 4/s whatever was sent above it (nginx limit_req rate=240r/m burst=60 without
// nodelay): the note names that rate and the nginx setting that would do it. Answers that do
// not agree name no nginx rate.
func TestLimiterQueueingNote(t *testing.T) {
	s := &Searcher{cfg: DefaultConfig()}
	backlog := []engine.SearchBreach{{Clause: "backlog", Text: "backlog: answered 4/s of 8/s sent"}}
	probe := func(rate, answered float64, verdict string) engine.SearchProbe {
		p := engine.SearchProbe{Rate: rate, Goodput: rate, MeasureS: 10, Verdict: verdict, AnsweredPerS: answered,
			Summary: engine.Summary{OK: int64(rate * 10), Completed: int64(rate * 10)}}
		if verdict == "fail" {
			p.Breaches = backlog
		}
		return p
	}
	probes := []engine.SearchProbe{probe(4, 4, "pass"), probe(8, 4, "fail"), probe(6, 4.1, "fail"), probe(4.5, 4, "fail")}
	l, _ := s.inferLimiter(context.Background(), probes, nil, time.Now())
	if l == nil || l.Kind != "none" {
		t.Fatalf("limiter %+v, want none (nothing rejected)", l)
	}
	last := l.Notes[len(l.Notes)-1]
	for _, want := range []string{"4–4.1/s", "3 probes failed the backlog clause", "rate=240r/m without nodelay"} {
		if !strings.Contains(last, want) {
			t.Errorf("note %q lacks %q", last, want)
		}
	}
	// A node whose answers spread widely (a capacity that sags): no nginx rate named.
	probes = []engine.SearchProbe{probe(800, 800, "pass"), probe(1600, 1000, "fail"), probe(1200, 700, "fail")}
	l, _ = s.inferLimiter(context.Background(), probes, nil, time.Now())
	if last := l.Notes[len(l.Notes)-1]; !strings.Contains(last, "700–1000/s") || strings.Contains(last, "rate=") {
		t.Errorf("note %q; want the spread named and no nginx rate", last)
	}
}

// TestLimiterQueueingNoteOneRate: answers that agree to the digit read as one rate, not "4–4/s".
func TestLimiterQueueingNoteOneRate(t *testing.T) {
	backlog := []engine.SearchBreach{{Clause: "backlog"}}
	probes := []engine.SearchProbe{
		{Rate: 8, MeasureS: 10, Verdict: "fail", AnsweredPerS: 4, Breaches: backlog},
		{Rate: 6, MeasureS: 10, Verdict: "fail", AnsweredPerS: 4.0001, Breaches: backlog},
	}
	if n := queueing(probes); !strings.Contains(n, "answers came back at 4/s whatever") {
		t.Errorf("note %q; want one rate, 4/s", n)
	}
}
