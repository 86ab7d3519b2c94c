package engine

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Source is a stream of requests read while the run goes, instead of a fixed mix: targets on
// standard input (`generate | rpcstress --targets - --rate 500/s`), possibly endless, read
// lazily as vegeta's -lazy does. A feeder goroutine takes them from Next into a bounded
// queue (sourceQueue) ahead of the schedule; each due request takes the next one.
//
//   - The stream's end ends the run, end reason EndTargetsEnded; a broken stream (a bad
//     target) ends it with EndTargetsFailed, the error kept for Runner.SourceErr. Every
//     request read before the end is sent.
//   - A request due while the queue is empty is counted dropped: the source (the generator
//     feeding standard input) is slower than the rate, which is the tester's limit, not the
//     target's, so it must not show as latency. The first such drop is an event, and the
//     run's total of them another at the end.
//   - Requests are counted and named by Index: Config.SourceRequests distinct ones at most.
//
// The fixed mix keeps its allocation-free send path; a streamed body was read into its own
// buffer by the source, and is sent from it.
type Source interface {
	// Next blocks until the next request has been read. It returns io.EOF when the stream
	// has ended, any other error when it cannot go on; it is not called again after either.
	Next() (Streamed, error)
}

// Streamed is one request of a Source.
type Streamed struct {
	// Index is the request's entry in the run's table of distinct requests, from 0 in the
	// order they first appear, below Config.SourceRequests.
	Index int
	// Request describes entry Index (Name, Method, Path, Headers, Items): required the first
	// time an Index appears, ignored after. Its Body, Template and Weight are not used.
	Request *Request
	// Body is this request's body.
	Body []byte
}

// End reasons of a run fed by a Source.
const (
	// EndTargetsEnded: the Source (targets on standard input) ended.
	EndTargetsEnded = "targets ended"
	// EndTargetsFailed: the Source failed (a bad target); see Runner.SourceErr.
	EndTargetsFailed = "targets failed"
)

// sourceQueue is how many requests the feeder reads ahead of the schedule: at 4096 it covers
// 400 ms at 10 000/s, far more than a scheduler tick hands out at once, at a few MiB of
// JSON-RPC bodies.
const sourceQueue = 4096

// streamItem is one request in the queue.
type streamItem struct {
	idx  int
	body []byte
}

// feed runs a Source for one run: the feeder goroutine (run) is the only writer of the
// request table, writing entry i before any request with Index i enters the queue, so a
// worker that takes it, and the aggregator that later files its sample, read the entry after
// it was written (the channels order them).
type feed struct {
	src     Source
	table   []Request // the run's Config.Requests, SourceRequests long
	known   []bool    // which entries are written; the feeder's own
	queue   chan streamItem
	events  *EventLog
	err     atomic.Pointer[error] // why the stream failed; set before queue is closed
	starved atomic.Int64          // requests dropped because the queue was empty
	ended   sync.Once             // the run was stopped for the stream's end
	done    chan struct{}         // closed when the run no longer takes requests
	primed  chan struct{}         // closed when the first request is queued, or the stream ended
}

func newFeed(src Source, table []Request, events *EventLog) *feed {
	return &feed{src: src, table: table, known: make([]bool, len(table)), queue: make(chan streamItem, sourceQueue),
		events: events, done: make(chan struct{}), primed: make(chan struct{})}
}

// run reads the Source into the queue until it ends or the run is over, then closes the
// queue. A run that ends first leaves it blocked in Next if the source is (standard input
// cannot be interrupted): the process is about to end.
func (f *feed) run() {
	var prime sync.Once
	defer prime.Do(func() { close(f.primed) })
	defer close(f.queue)
	for first := true; ; first = false {
		s, err := f.src.Next()
		if err == nil {
			err = f.learn(s)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				f.err.Store(&err)
			}
			return
		}
		select {
		case f.queue <- streamItem{idx: s.Index, body: s.Body}:
		case <-f.done:
			return
		}
		if first {
			prime.Do(func() { close(f.primed) })
		}
	}
}

// waitPrimed waits, at most max, for the first request to be queued, so the schedule's first
// due request does not find the queue empty only because the feeder had not run yet.
func (f *feed) waitPrimed(max time.Duration) {
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-f.primed:
	case <-t.C:
	}
}

// learn writes a new entry of the table.
func (f *feed) learn(s Streamed) error {
	switch {
	case s.Index < 0 || s.Index >= len(f.table):
		return fmt.Errorf("a streamed request's index %d is outside the table of %d", s.Index, len(f.table))
	case f.known[s.Index]:
		return nil
	case s.Request == nil:
		return fmt.Errorf("the streamed request %d came without its description", s.Index)
	}
	r := *s.Request
	r.Body, r.Template, r.Weight = nil, nil, 1
	f.table[s.Index] = r
	f.known[s.Index] = true
	return nil
}

// take returns the next request without waiting. more is false once the stream has ended
// and its queue is empty; ok is false when there is none now.
func (f *feed) take() (it streamItem, ok, more bool) {
	select {
	case it, more = <-f.queue:
		return it, more, more
	default:
		return it, false, true
	}
}

// wait returns the next request, waiting for it (closed mode sends as fast as the source
// gives) until stop is closed; like take, more is false once the stream has ended and ok
// is false when there is none.
func (f *feed) wait(stop <-chan struct{}) (it streamItem, ok, more bool) {
	select {
	case it, more = <-f.queue:
		return it, more, more
	case <-stop:
		return it, false, true
	}
}

// starve counts a request dropped because none was ready, with an event the first time.
func (f *feed) starve() {
	if f.starved.Add(1) == 1 {
		f.events.Add("targets", "none ready when a request was due: dropped; the source is slower than the rate (the tester's limit, not the target's)")
	}
}

// end stops the run once the stream has ended (the first worker to find it so).
func (f *feed) end(stop func(string)) {
	f.ended.Do(func() {
		reason := EndTargetsEnded
		if err := f.failure(); err != nil {
			reason = EndTargetsFailed
			f.events.Add("targets", err.Error())
		}
		stop(reason)
	})
}

// failure is why the stream failed, or nil.
func (f *feed) failure() error {
	if p := f.err.Load(); p != nil {
		return *p
	}
	return nil
}

// close lets a feeder blocked on a full queue return; call it when the run is over.
func (f *feed) close() {
	close(f.done)
	if n := f.starved.Load(); n > 0 {
		f.events.Add("targets", fmt.Sprintf("%d requests dropped waiting for the source", n))
	}
}
