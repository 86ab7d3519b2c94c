package harvest

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// chain is what differs between chains: how to recognise one, where its window starts, which
// files it fills and how it reads a range of blocks.
type chain interface {
	// declare names the files this chain fills.
	declare(k *sink)
	// identify checks the node is of this chain and returns its id and head.
	identify(ctx context.Context) (id string, head int64, err error)
	// window finds the oldest block the node still serves (start), the oldest one worth asking
	// for (usable: tracing a block needs its parent's state too), with a sentence on it.
	window(ctx context.Context, head int64) (start, usable int64, note string, err error)
	// read reads blocks from..to into the files, telling done (blocks read) as it goes. It returns
	// how many it read and what it had to skip.
	read(ctx context.Context, from, to int64, done func(n int)) (read int, skipped []string, err error)
}

// Run harvests: identify the node, find its window, read the newest blocks inside it, and write
// the files and the manifest. A cancelled ctx keeps what was read (the manifest says partial);
// an error of the node does too, and Run returns the error with the manifest.
func Run(ctx context.Context, o Options) (*Manifest, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	c := newClient(&o)
	var ch chain
	if o.Chain == EVM {
		ch = &evm{c: c}
	} else {
		ch = &solana{c: c}
	}
	k := newSink()
	ch.declare(k)
	targets, err := k.checkOut(o.OutDir)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Chain: o.Chain, Source: Source(o.URL), Started: time.Now().UTC()}
	p := newPacer(&o, c, m.Started)

	p.phase("identify", 1)
	id, head, err := ch.identify(ctx)
	if err != nil {
		return nil, stopped(ctx, err)
	}
	m.ChainID, m.Head = id, head
	p.phase("window", 1)
	start, usable, note, err := ch.window(ctx, head)
	if err != nil {
		return nil, stopped(ctx, err)
	}
	m.WindowStart, m.WindowNote = start, note
	m.From, m.To = max(usable, head-int64(o.Blocks)+1), head
	total := int(m.To - m.From + 1)
	p.phase("blocks", total)
	m.Read, m.Skipped, err = ch.read(ctx, m.From, m.To, p.done)
	p.finish()

	m.Finished = time.Now().UTC()
	m.Requests = c.requests.Load()
	m.Complete = err == nil && m.Read > 0
	switch {
	case ctx.Err() != nil:
		m.Partial = fmt.Sprintf("stopped after %d of %d blocks", m.Read, total)
	case err != nil:
		m.Partial = fmt.Sprintf("the node failed after %d of %d blocks: %v", m.Read, total, err)
	case m.Read == 0:
		m.Partial = fmt.Sprintf("none of the %d blocks %d…%d could be read", total, m.From, m.To)
	}
	// What was read is written even after Ctrl-C: the writes must not see the cancelled context.
	if werr := k.write(context.WithoutCancel(ctx), targets, m); werr != nil {
		return m, fmt.Errorf("%w (%w)", ErrNotWritten, werr)
	}
	if err != nil && ctx.Err() == nil {
		return m, err
	}
	return m, nil
}

// stopped turns the error of an interrupted request into the plain fact of the interruption.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("stopped before any block was read: %w", context.Cause(ctx))
	}
	return err
}

// ErrNotWritten is a harvest whose files could not all be written (a full disk): no manifest
// in the folder says it is complete.
var ErrNotWritten = errors.New("the harvest could not be written whole, so no manifest says it is complete: free some space or give another --out")

// ErrEmpty is a chain with nothing to harvest yet.
var ErrEmpty = errors.New("the chain is empty")

// pacer tells Progress how a phase goes, with an ETA from the pace so far, at most 5 times a
// second (and always at a phase's start and end).
type pacer struct {
	o       *Options
	c       *client
	start   time.Time
	name    string
	total   int
	n       int
	began   time.Time
	lastOut time.Time
}

func newPacer(o *Options, c *client, start time.Time) *pacer {
	return &pacer{o: o, c: c, start: start}
}

func (p *pacer) phase(name string, total int) {
	p.name, p.total, p.n, p.began = name, total, 0, time.Now()
	p.emit(true)
}

func (p *pacer) done(n int) {
	p.n += n
	p.emit(false)
}

func (p *pacer) finish() { p.emit(true) }

func (p *pacer) emit(force bool) {
	if p.o.Progress == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.lastOut) < 200*time.Millisecond {
		return
	}
	p.lastOut = now
	var eta time.Duration
	if p.n > 0 && p.n < p.total {
		per := now.Sub(p.began) / time.Duration(p.n)
		eta = per * time.Duration(p.total-p.n)
	}
	p.o.Progress(Progress{Phase: p.name, Done: p.n, Total: p.total, Requests: p.c.requests.Load(),
		Elapsed: now.Sub(p.start), ETA: eta})
}
