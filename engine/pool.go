package engine

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// batchSize is how many samples a worker collects before handing them over: large enough that the
// channel costs little per sample, small enough that one batch is a few KiB.
const batchSize = 256

// batchMaxAge bounds how stale a worker's unsent samples may get while it stays busy, so the
// live view never lags by more than this.
const batchMaxAge = int64(50 * time.Millisecond)

// pool is the set of workers that send requests: at most Config.Connections of them, so at most
// that many requests in flight.
type pool struct {
	cfg      *Config
	client   *Client
	sched    *Scheduler
	agg      *Aggregator
	counters *Counters
	start    time.Time
	mix      mix
	wg       sync.WaitGroup
	// abandoned is set when the drain at the end gives up: what is still in the backlog is
	// then never sent, and counted dropped.
	abandoned atomic.Bool
}

// run starts the workers; wait for them with p.wg.
func (p *pool) run(ctx context.Context) {
	for i := 0; i < p.cfg.Connections; i++ {
		p.wg.Add(1)
		go func(seed uint64) {
			defer p.wg.Done()
			w := worker{p: p, snd: p.client.NewSender(), rng: rand.New(rand.NewPCG(seed, uint64(time.Now().UnixNano())))}
			w.b = p.agg.getBatch()
			if p.cfg.Mode == ModeClosed {
				w.closedLoop(ctx)
			} else {
				w.openLoop(ctx)
			}
			w.flush()
		}(uint64(i))
	}
}

// worker is one sending goroutine with its own reusable state.
type worker struct {
	p   *pool
	snd *Sender
	rng *rand.Rand
	b   *Batch
}

// openLoop takes due requests from the backlog. Once the user stops the run, what is still in
// the backlog was never sent: it is counted dropped, as DESIGN.md's invariant requires.
func (w *worker) openLoop(ctx context.Context) {
	jobs := w.p.sched.Jobs()
	for {
		var j job
		var ok bool
		select {
		case j, ok = <-jobs:
		default:
			w.flush() // idle: hand over what we have before waiting
			j, ok = <-jobs
		}
		if !ok {
			return
		}
		sc := w.p.counters.Stage(int(j.stage))
		if w.p.sched.StopReason() != "" || w.p.abandoned.Load() {
			sc.Dropped.Add(1)
			continue
		}
		sc.Sent.Add(1)
		w.send(ctx, j.intended, j.stage)
	}
}

// closedLoop sends back to back: each request is intended the moment the previous one ended.
func (w *worker) closedLoop(ctx context.Context) {
	for w.p.sched.Claim() {
		if w.p.sched.paused() {
			w.flush()
			time.Sleep(10 * time.Millisecond)
			w.p.sched.unclaim()
			continue
		}
		stage := w.p.sched.Stage()
		sc := w.p.counters.Stage(stage)
		sc.Scheduled.Add(1)
		sc.Sent.Add(1)
		w.send(ctx, -1, uint16(stage))
	}
}

// send sends one request and files its sample. intended < 0 means "now" (closed loop).
func (w *worker) send(ctx context.Context, intended int64, stage uint16) {
	b := w.b
	i := len(b.Samples)
	b.Samples = append(b.Samples, Sample{Intended: intended, Stage: stage})
	s := &b.Samples[i]
	idx := w.p.mix.pick(w.rng)
	w.p.counters.RequestSent(int(stage), idx)
	w.snd.Send(ctx, idx, s, b, int32(i), w.p.start)
	if intended < 0 {
		s.Intended = s.Sent
	}
	// A slow answer flushes at once: the next send may be as slow, and a finished request must
	// not sit in the batch (shown as in flight, lost if the drain gives up) for that long.
	if len(b.Samples) >= batchSize || s.Done-b.Samples[0].Done > batchMaxAge || s.Done-s.Sent > batchMaxAge {
		w.flush()
	}
}

// flush hands the batch to the aggregator and takes a fresh one.
func (w *worker) flush() {
	if len(w.b.Samples) == 0 {
		return
	}
	if !w.p.agg.submit(w.b) {
		w.b.Reset() // the aggregator is gone; these stay counted as in flight
		return
	}
	w.b = w.p.agg.getBatch()
}
