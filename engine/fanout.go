package engine

// The fan-out of a run with several targets (see Target): the one schedule's requests, each
// picked from the mix and rendered once, handed to every target's lane with the same intended
// time and stage. It runs where the walk steps (Run's goroutine, or the first target's event
// loop: scheduler_stepped.go), in place of the single target's backlog hand-off (schedRun.emit).

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rpcstress/rpcstress/engine/answers"
)

// answerComparer takes every target's answer to every request (package answers' Comparer).
type answerComparer interface {
	// Add files target a.Target's answer to request seq; a.Body is read during the call only.
	// Safe for concurrent use.
	Add(seq uint64, request string, sent []byte, a answers.Answer)
	// Live is the counts so far, cheap enough for every published view.
	Live() answers.Result
	// Result is the final comparison, examples included.
	Result() *answers.Result
}

// sharedReq is one scheduled request of a run with several targets: the body every target is
// sent, and its sequence number for the comparison of answers. It is pooled and counts its
// users: each lane lets go of it once (sent and answered, or dropped), and the last one gives
// it back, so a steady run renders into buffers that already fit and allocates nothing.
type sharedReq struct {
	f    *fanout
	seq  uint64
	idx  int    // the mix entry
	body []byte // what every target is sent: the entry's Body, or the rendering in buf
	buf  []byte
	refs atomic.Int32 // lanes yet to let go of it
}

// fanout hands each scheduled request to every lane without ever waiting for one: a lane whose
// backlog is full counts the request dropped, on its own books only, so a slow or dead target
// cannot slow down or drop the others' sends.
type fanout struct {
	lanes []*lane
	reqs  []Request
	mix   mix
	rng   *rand.Rand // the Scheduler goroutine's: picks and renders
	seq   uint64
	free  sync.Pool
	cmp   answerComparer // nil unless the answers are compared
	names []string       // per mix entry, the request's name in the comparison
}

// newFanout makes the fan-out to lanes of cfg's request mix; cmp compares their answers, or nil.
func newFanout(cfg *Config, lanes []*lane, cmp answerComparer) *fanout {
	f := &fanout{
		lanes: lanes,
		reqs:  cfg.Requests,
		mix:   newMix(cfg.Requests),
		rng:   rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(len(lanes)))),
		cmp:   cmp,
	}
	f.free.New = func() any { return &sharedReq{f: f} }
	rows := newRequestRows(cfg.Requests, false)
	f.names = make([]string, len(cfg.Requests))
	for i := range f.names {
		f.names[i] = rows.names[rows.of(i)]
	}
	return f
}

// dispatch picks and renders one request due at intended in stage, and offers it to every
// lane. Scheduler goroutine only.
func (f *fanout) dispatch(intended int64, stage uint16) {
	q := f.free.Get().(*sharedReq)
	q.seq = f.seq
	f.seq++
	q.idx = f.mix.pick(f.rng)
	if t := f.reqs[q.idx].Template; t != nil {
		q.buf = t.Append(q.buf[:0], f.rng)
		q.body = q.buf
	} else {
		q.body = f.reqs[q.idx].Body
	}
	// Every lane's reference is taken before any lane can let go of one.
	q.refs.Store(int32(len(f.lanes)))
	for _, l := range f.lanes {
		sc := l.counters.Stage(int(stage))
		sc.Scheduled.Add(1)
		select {
		case l.jobs <- job{intended: intended, stage: stage, req: q}:
		default:
			sc.Dropped.Add(1) // this lane's backlog is full: counted on its books only
			q.dropped(l.index)
		}
	}
}

// close ends every lane's backlog: the schedule is over. Scheduler goroutine only.
func (f *fanout) close() {
	for _, l := range f.lanes {
		close(l.jobs)
	}
}

// answered files lane's answer to q (the sample, and the body snd received, valid until the
// lane's next send) and lets go of q.
func (q *sharedReq) answered(lane int, s *Sample, snd *Sender) {
	if c := q.f.cmp; c != nil {
		body := snd.LastAnswer()
		a := answers.Answer{Target: lane, Head: q.f.lanes[lane].headNow()}
		if s.Err != ErrNone || s.Status < 200 || s.Status > 299 || !looksJSON(body) {
			a.Missing = true // nothing to compare: the comparer counts it incomplete
		} else {
			a.Body = body
		}
		c.Add(q.seq, q.f.names[q.idx], q.body, a)
	}
	q.release()
}

// dropped files that lane never sent q (its backlog was full, or the run stopped before) and
// lets go of q. A request of a single target (nil) has nothing to file.
func (q *sharedReq) dropped(lane int) {
	if q == nil {
		return
	}
	if c := q.f.cmp; c != nil {
		c.Add(q.seq, q.f.names[q.idx], q.body, answers.Answer{Target: lane, Missing: true, Head: q.f.lanes[lane].headNow()})
	}
	q.release()
}

// release lets go of q for one lane; the last gives it back to the pool.
func (q *sharedReq) release() {
	if q.refs.Add(-1) == 0 {
		q.body = nil
		q.f.free.Put(q)
	}
}
