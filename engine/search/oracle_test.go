package search

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// Oracles: pure models of a target, rate → what a probe would measure, so the strategy can be
// tested exactly and fast, on a fake clock (the k6 lesson: hold the real thing against a slow,
// obviously right reference).

// fakeClock is a clock the fake prober advances by each probe's length.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// model answers a window of t seconds at rate r.
type model interface {
	window(r, t float64) (ok, limited, failed float64, p99 float64)
}

// fakeProber runs probes against a model on a fake clock. gap is the idle time between
// probes (a real search has tens of ms between runners).
type fakeProber struct {
	clock *fakeClock
	m     model
	gap   time.Duration
	rates []float64
}

func (f *fakeProber) Probe(_ context.Context, spec ProbeSpec) (Measure, error) {
	r, settle, measure := float64(spec.Rate), spec.Settle, spec.Measure
	f.rates = append(f.rates, r)
	f.idle(f.gap)
	if d := prefillTime(spec); d > 0 {
		f.m.window(float64(spec.PrefillRate), d.Seconds())
		f.clock.advance(d)
	}
	var m Measure
	if settle > 0 {
		ok, lim, _, _ := f.m.window(r, settle.Seconds())
		m.SettleOK, m.SettleLimited, m.SettleSeconds = int64(math.Round(ok)), int64(math.Round(lim)), settle.Seconds()
	}
	ok, lim, failed, p99 := f.m.window(r, measure.Seconds())
	m.Seconds = measure.Seconds()
	m.Summary = summaryOf(ok, lim, failed, p99)
	f.clock.advance(f.gap + settle + measure)
	return m, nil
}

func (f *fakeProber) Burst(_ context.Context, gap time.Duration, rate engine.Rate, window time.Duration) (Measure, error) {
	f.idle(gap)
	ok, lim, failed, p99 := f.m.window(float64(rate), window.Seconds())
	f.clock.advance(gap + window)
	return Measure{Seconds: window.Seconds(), Summary: summaryOf(ok, lim, failed, p99)}, nil
}

// idle lets a bucket model drain.
func (f *fakeProber) idle(d time.Duration) {
	switch b := f.m.(type) {
	case *bucket:
		b.window(0, d.Seconds())
	case *delayingBucket:
		b.level = 0
	}
}

func summaryOf(ok, lim, failed, p99 float64) engine.Summary {
	o, l, fl := int64(math.Round(ok)), int64(math.Round(lim)), int64(math.Round(failed))
	n := o + l + fl
	return engine.Summary{Scheduled: n, Sent: n, Completed: n, OK: o, Limited: l, Failed: fl,
		Latency:          engine.Percentiles{P50: p99 / 2, P90: p99 * 0.9, P99: p99, Max: p99 * 1.5},
		LatencyByOutcome: map[string]engine.Percentiles{"ok": {P50: p99 / 2, P90: p99 * 0.9, P99: p99}, "limited": {P50: p99 / 2, P99: p99}}}
}

// bucket is a token bucket (nginx limit_req, nodelay) as a fluid: a level that rises at r − L
// while r > L and drains at L − r, up to burst; past the top, the excess is rejected. It keeps
// its level from probe to probe, as a real limiter does.
type bucket struct {
	rate, burst, level float64
}

func (b *bucket) window(r, t float64) (ok, limited, failed, p99 float64) {
	if r <= b.rate {
		b.level = math.Max(0, b.level-(b.rate-r)*t)
		return r * t, 0, 0, 1
	}
	fill := (b.burst - b.level) / (r - b.rate)
	if fill >= t {
		b.level += (r - b.rate) * t
		return r * t, 0, 0, 1
	}
	b.level = b.burst
	return r*fill + b.rate*(t-fill), (r - b.rate) * (t - fill), 0, 1
}

// delayingBucket is a bucket that is empty at the start of every probe: nginx's delaying
// limit_req, whose held requests make each run's drain last until the bucket has leaked empty.
type delayingBucket struct{ bucket }

// shareDropper rejects a fixed share of what is offered above its threshold: rate-limited
// answers, but no plateau (not a token bucket).
type shareDropper struct{ above, share float64 }

func (s shareDropper) window(r, t float64) (ok, limited, failed, p99 float64) {
	if r <= s.above {
		return r * t, 0, 0, 1
	}
	return r * t * (1 - s.share), r * t * s.share, 0, 1
}

// knee is a node that serves capacity per second: below it latency is base, above it the queue
// grows and so does the p99 (the mock node's Capacity). noise, if set, scales the p99 by a
// random factor within ±noise.
type knee struct {
	capacity, base, noise float64
	rng                   *rand.Rand
}

func (k *knee) window(r, t float64) (ok, limited, failed, p99 float64) {
	p99 = k.base
	if r > k.capacity {
		// The queue grows at r − capacity; its last request waits (r − c)·t / c seconds.
		p99 += (r - k.capacity) * t / k.capacity * 1000
	}
	if k.noise > 0 {
		p99 *= 1 + k.noise*(2*k.rng.Float64()-1)
	}
	return r * t, 0, 0, p99
}

// constant passes or fails everything.
type constant struct{ failShare float64 }

func (c constant) window(r, t float64) (ok, limited, failed, p99 float64) {
	return r * t * (1 - c.failShare), 0, r * t * c.failShare, 1
}
