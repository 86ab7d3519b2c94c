package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// PrimeHead reads the head of cfg's target once before the run, and the reference node's when
// there is one: the templates must never send a head that was not read ({{head}} as 0), and a
// target that cannot answer its chain's head method is told now, not found out from a run of
// errors. The head goes into cfg.Head.Cell (made when nil); with several targets, each one's
// is read and the Cell holds the lowest (primeTargets). A Config that follows no head is left
// alone. Call it before NewRunner, which refuses a head that was never read.
func PrimeHead(ctx context.Context, cfg *Config) error {
	h := &cfg.Head
	if !h.On() {
		return nil
	}
	if h.Chain.HeadMethod() == "" {
		return fmt.Errorf("chain %q: use %q or %q", h.Chain, ChainEVM, ChainSolana)
	}
	if h.Cell == nil {
		h.Cell = &HeadCell{}
	}
	if len(cfg.Targets) > 0 {
		return primeTargets(ctx, cfg)
	}
	return primeOne(ctx, cfg, h.Cell, true)
}

// primeOne reads the head of cfg's target into cell, then the reference node's when withRef
// and there is one.
func primeOne(ctx context.Context, cfg *Config, cell *HeadCell, withRef bool) error {
	h := &cfg.Head
	target, ref, err := headReaders(cfg)
	if err != nil {
		return err
	}
	defer target.close()
	n, err := target.read(ctx)
	if err != nil {
		return primeError(h.Chain, "", cfg.DisplayURL, err)
	}
	cell.Store(n)
	if ref != nil && withRef {
		defer ref.close()
		if _, err := ref.read(ctx); err != nil {
			return primeError(h.Chain, "the reference node ", h.RefDisplay, err)
		}
	}
	return nil
}

// primeError says which read failed, why, and what to do.
func primeError(chain Chain, which, display string, err error) error {
	fix := "check the URL and that the node is up; the head is read before the first request is sent"
	var re *rpcError
	if errors.As(err, &re) && re.code == -32601 {
		other := ChainSolana
		if chain == ChainSolana {
			other = ChainEVM
		}
		fix = fmt.Sprintf("the node does not know %s: if it serves %s, write chain = %q", chain.HeadMethod(), other, other)
	}
	return fmt.Errorf("chain = %s but %s at %s%s failed: %w: %s", chain, chain.HeadMethod(), which, display, err, fix)
}

// headReaders makes the readers of the target's head and of the reference node's (nil when
// there is none). The target's reads carry the run's headers and TLS settings; the reference
// node is another host, which gets neither the target's API key nor its private CA.
func headReaders(cfg *Config) (target, ref *headReader, err error) {
	tlsCfg, err := newTLSConfig(cfg.TLS)
	if err != nil {
		return nil, nil, err
	}
	h := &cfg.Head
	target = newHeadReader(h.Chain, cfg.URL, cfg.DisplayURL, cfg.Headers, tlsCfg, cfg.Timeout)
	if h.RefURL != "" {
		plain, err := newTLSConfig(TLSConfig{})
		if err != nil {
			return nil, nil, err
		}
		ref = newHeadReader(h.Chain, h.RefURL, h.RefDisplay, nil, plain, cfg.Timeout)
	}
	return target, ref, nil
}

// HeadReading is what the tracker knows of one node's head.
type HeadReading struct {
	// Head is the last head read, and Known whether one was.
	Head  uint64
	Known bool
	// Age is the time since the last answer; Failing is set when the last read failed (the
	// head is stale), LastErr says why.
	Age     time.Duration
	Failing bool
	LastErr string
	// Reads and Failures count the reads and the failed ones.
	Reads, Failures int64
}

// HeadState is the head tracker's view of a run: the target's head, the reference node's, and
// how far the target's moved lately.
type HeadState struct {
	Chain Chain
	Every time.Duration
	// Start is the target's head read before the first request (PrimeHead).
	Start  uint64
	Target HeadReading
	// Ref is the reference node's head; nil without one.
	Ref        *HeadReading
	RefDisplay string
	// Advance is how far the target's head moved over the last AdvanceOver of the timeline
	// (up to HeadWindow); AdvanceOver is 0 until two seconds of the timeline hold a head.
	Advance     int64
	AdvanceOver time.Duration
}

// Lag is how many blocks (slots) the target's head is behind the reference node's; negative
// when it is ahead. ok is false until both are known.
func (s *HeadState) Lag() (lag int64, ok bool) {
	if s == nil || s.Ref == nil || !s.Ref.Known || !s.Target.Known {
		return 0, false
	}
	return int64(s.Ref.Head) - int64(s.Target.Head), true
}

// headBook is one node's HeadReading as the tracker writes it, read by the aggregator.
type headBook struct {
	mu   sync.Mutex
	r    HeadReading
	okAt time.Duration // when the last answer came, since the run's start
}

// record files the outcome of one read made at at (since the run's start). It reports the
// failing state changed: a read failed after answers, or answered after failures.
func (b *headBook) record(head uint64, err error, at time.Duration) (changed bool, r HeadReading) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.r.Reads++
	was := b.r.Failing
	if err != nil {
		b.r.Failures++
		b.r.Failing, b.r.LastErr = true, err.Error()
	} else {
		b.r.Head, b.r.Known, b.r.Failing, b.okAt = head, true, false, at
	}
	return was != b.r.Failing, b.r
}

// reading is the book as of now (since the run's start).
func (b *headBook) reading(now time.Duration) HeadReading {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.r
	if r.Known {
		r.Age = max(now-b.okAt, 0)
	}
	return r
}

// headTracker follows the head of a run's target, and of its reference node, while the run
// goes: one goroutine per node reads every HeadConfig.Every, stores the target's head in the
// HeadCell the templates read, and keeps a book the aggregator reads when it closes a second.
// A failed read is counted and shown (the head goes stale, its age grows), never fatal.
type headTracker struct {
	cfg    HeadConfig
	start  time.Time
	events *EventLog
	// ref reads the reference node; nil without one, or when another target's tracker
	// reads it (shareHeads).
	target, ref *headReader
	tb          headBook
	rb          *headBook // the reference node's book; nil without one
	first       uint64    // the head PrimeHead read
	// whose names the target in its events: "" in a run of one target, "NAME's " with several.
	whose string
	// lowest keeps the templates' cell at the lowest head of several targets; nil with one.
	lowest *lowestCell
}

// newHeadTracker prepares the tracker of cfg's head; nil when the run follows none. The head
// must have been read once (PrimeHead).
func newHeadTracker(cfg *Config, events *EventLog, start time.Time) (*headTracker, error) {
	h := cfg.Head
	if !h.On() {
		return nil, nil
	}
	if h.Cell == nil || !h.Cell.Known() {
		return nil, errors.New("the chain's head was not read before the run: call PrimeHead first")
	}
	target, ref, err := headReaders(cfg)
	if err != nil {
		return nil, err
	}
	t := &headTracker{cfg: h, start: start, events: events, target: target, ref: ref, first: h.Cell.Load()}
	t.tb.r = HeadReading{Head: t.first, Known: true} // as of the start: PrimeHead read it just before
	if ref != nil {
		t.rb = &headBook{}
	}
	return t, nil
}

// run follows the heads until ctx is cancelled, and returns when both readers have stopped.
func (t *headTracker) run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { t.follow(ctx, t.target, &t.tb, t.cfg.Cell, t.whose) })
	if t.ref != nil {
		wg.Go(func() { t.follow(ctx, t.ref, t.rb, nil, "the reference node's ") })
	}
	wg.Wait()
	t.target.close()
	if t.ref != nil {
		t.ref.close()
	}
}

// follow reads one node's head now and every interval after, until ctx ends. A read that the
// end of the run cuts off is not counted: it did not fail, the run left.
func (t *headTracker) follow(ctx context.Context, r *headReader, b *headBook, cell *HeadCell, whose string) {
	tick := time.NewTicker(t.cfg.every())
	defer tick.Stop()
	for {
		head, err := r.read(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil && cell != nil {
			cell.Store(head)
			t.lowest.update()
		}
		if changed, now := b.record(head, err, time.Since(t.start)); changed {
			t.note(whose, now)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// note records in the events that a head went stale or came back: once per change, not per
// read, so a node down for an hour adds two events, not two thousand.
func (t *headTracker) note(whose string, r HeadReading) {
	if t.events == nil {
		return
	}
	method := t.cfg.Chain.HeadMethod()
	if r.Failing {
		t.events.Add("head", fmt.Sprintf("%shead is stale at %d: %s failed (%s)", whose, r.Head, method, r.LastErr))
		return
	}
	t.events.Add("head", fmt.Sprintf("%shead read again: %d (%d of %d reads failed so far)", whose, r.Head, r.Failures, r.Reads))
}

// state is what the tracker knows as of now (since the run's start); Advance is left to the
// aggregator, which holds the timeline.
func (t *headTracker) state(now time.Duration) *HeadState {
	s := &HeadState{Chain: t.cfg.Chain, Every: t.cfg.every(), Start: t.first, Target: t.tb.reading(now), RefDisplay: t.cfg.RefDisplay}
	if t.rb != nil {
		r := t.rb.reading(now)
		s.Ref = &r
	}
	return s
}
