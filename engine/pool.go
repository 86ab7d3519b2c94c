package engine

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// batchSize is how many samples a worker collects before handing them over: large enough that the
// channel costs little per sample, small enough that one batch is a few KiB.
const batchSize = 256

// batchStart is the room a new batch has: a batch grows to what its worker sends between
// flushes, up to batchSize, and keeps that room when reused. Most workers send far fewer than
// batchSize in batchMaxAge (64 connections at 5,000/s: 4 each), and the batches in circulation
// (each worker's, those queued while the aggregator is busy, the free ones) made with room for
// batchSize held 5.7 MB of the heap's 11 MB in such a run of two targets.
const batchStart = 16

// batchMaxAge bounds how stale a worker's unsent samples may get while it stays busy, so the
// live view never lags by more than this.
const batchMaxAge = int64(50 * time.Millisecond)

// pool is the set of workers that send requests: Config.InFlight of them (Connections, or
// Connections × Streams over HTTP/2), so at most that many requests in flight.
type pool struct {
	cfg      *Config
	client   *Client
	sched    *Scheduler
	agg      *Aggregator
	counters *Counters
	start    time.Time
	jobs     <-chan job // the backlog (open mode): the Scheduler's, or a lane's from the fanout
	lane     int        // the target's index in a run with several (the comparison's)
	mix      mix        // the fixed mix requests are picked from …
	feed     *feed      // … or the stream they are taken from
	wg       sync.WaitGroup
	// abandoned is set when the drain at the end gives up: what is still in the backlog is
	// then never sent, and counted dropped.
	abandoned atomic.Bool
	// workers are published once every worker exists, for collect; nil before.
	workers atomic.Pointer[[]*worker]
	// loop, when not nil, sends instead of the workers (loop_linux.go); its batch is the one
	// worker's of workers.
	loop *evLoop
}

// run starts the workers, or the event loop where it can send; wait for them with p.wg.
func (p *pool) run(ctx context.Context) {
	if l := newLoop(ctx, p); l != nil {
		p.loop = l
		p.workers.Store(&[]*worker{l.w})
		p.wg.Go(func() {
			l.run()
			l.w.hold() // for good, as a worker's
			l.w.flush()
		})
		return
	}
	ws := make([]*worker, p.cfg.InFlight())
	for i := range ws {
		ws[i] = &worker{p: p, snd: p.client.NewSender(), rng: rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano()))),
			b: p.agg.getBatch()}
	}
	p.workers.Store(&ws)
	for _, w := range ws {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			if p.cfg.Mode == ModeClosed {
				w.closedLoop(ctx)
			} else {
				w.openLoop(ctx)
			}
			w.hold() // for good: what is left goes now, and collect leaves the worker alone
			w.flush()
		}()
	}
}

// collect hands the aggregator (which calls it: ingest is its own) the samples of every worker
// between sends, so a worker that waits for its next request need not hand them over itself.
// In the open loop that wait follows almost every request: handing each over as the worker
// went idle was a channel send and a wake of the aggregator per request (bench/README,
// issue 20). A worker in the middle of a send is skipped; it hands its batch over itself when
// the batch is full or old (send).
func (p *pool) collect(ingest func(*Batch)) {
	ws := p.workers.Load()
	if ws == nil {
		return
	}
	for _, w := range *ws {
		if !w.state.CompareAndSwap(workerIdle, workerHeld) {
			continue
		}
		var full *Batch
		if len(w.b.Samples) > 0 {
			full, w.b = w.b, p.agg.getBatch()
		}
		w.state.Store(workerIdle) // from here the worker's batch is its own again
		if full != nil {
			ingest(full)
		}
	}
}

// A worker's batch is its own while it is held (a send, a flush, or collect taking it).
const (
	workerIdle int32 = iota
	workerHeld
)

// worker is one sending goroutine with its own reusable state.
type worker struct {
	p     *pool
	snd   *Sender
	rng   *rand.Rand
	b     *Batch
	state atomic.Int32 // workerIdle or workerHeld: who may touch b
}

// hold makes the batch the worker's own until release, waiting out a collect that is taking
// it (a few pointer moves).
func (w *worker) hold() {
	for !w.state.CompareAndSwap(workerIdle, workerHeld) {
		runtime.Gosched()
	}
}

func (w *worker) release() { w.state.Store(workerIdle) }

// openLoop takes due requests from the backlog. Once the user stops the run, what is still in
// the backlog was never sent: it is counted dropped, as DESIGN.md's invariant requires. While
// it waits for the next, the aggregator collects its samples (pool.collect).
func (w *worker) openLoop(ctx context.Context) {
	jobs := w.p.jobs
	for {
		j, ok := <-jobs
		if !ok {
			return
		}
		sc := w.p.counters.Stage(int(j.stage))
		if w.p.sched.StopReason() != "" || w.p.abandoned.Load() {
			sc.Dropped.Add(1)
			j.req.dropped(w.p.lane)
			continue
		}
		if w.p.feed == nil {
			sc.Sent.Add(1)
			w.send(ctx, j, -1, nil)
			continue
		}
		// A streamed request is not waited for: a late one would show the source's delay
		// as the target's latency (see Source).
		it, ok, more := w.p.feed.take()
		switch {
		case !more:
			sc.Dropped.Add(1)
			w.p.feed.end(w.p.sched.Stop)
		case !ok:
			sc.Dropped.Add(1)
			w.p.feed.starve()
		default:
			sc.Sent.Add(1)
			w.send(ctx, j, it.idx, it.body)
		}
	}
}

// closedLoop sends back to back: each request is intended the moment the previous one ended.
func (w *worker) closedLoop(ctx context.Context) {
	for w.p.sched.Claim() {
		if w.p.sched.paused() {
			w.hold()
			w.flush()
			w.release()
			time.Sleep(10 * time.Millisecond)
			w.p.sched.unclaim()
			continue
		}
		idx, body := -1, []byte(nil)
		if w.p.feed != nil {
			it, ok, more := w.p.feed.wait(w.p.sched.Done()) // back to back: as fast as the source gives
			if !ok {
				w.p.sched.unclaim()
				if !more {
					w.p.feed.end(w.p.sched.Stop)
				}
				return
			}
			idx, body = it.idx, it.body
		}
		stage := w.p.sched.Stage()
		sc := w.p.counters.Stage(stage)
		sc.Scheduled.Add(1)
		sc.Sent.Add(1)
		w.send(ctx, job{intended: -1, stage: uint16(stage)}, idx, body)
	}
}

// send sends job j and files its sample. j.intended < 0 means "now" (closed loop). The request
// is j.req's, picked for every target of a run with several; else streamed < 0 picks one of
// the mix, and streamed ≥ 0 is the Index of a Source's request, sent with body.
func (w *worker) send(ctx context.Context, j job, streamed int, body []byte) {
	w.hold()
	defer w.release()
	b := w.b
	i := len(b.Samples)
	b.Samples = append(b.Samples, Sample{Intended: j.intended, Stage: j.stage})
	s := &b.Samples[i]
	stage := j.stage
	switch q := j.req; {
	case q != nil:
		w.p.counters.RequestSent(int(stage), q.idx)
		w.snd.SendBody(ctx, q.idx, q.body, s, b, int32(i), w.p.start)
		q.answered(w.p.lane, s, w.snd) // before the next send reuses the answer
	case streamed < 0:
		idx := w.p.mix.pick(w.rng)
		w.p.counters.RequestSent(int(stage), idx)
		w.snd.Send(ctx, idx, s, b, int32(i), w.p.start)
	default:
		w.p.counters.RequestSent(int(stage), streamed)
		w.snd.SendStreamed(ctx, streamed, body, s, b, int32(i), w.p.start)
	}
	if j.intended < 0 {
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
