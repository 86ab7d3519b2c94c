package engine

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// The subscription book: one goroutine that takes every subscriber's reports and alone keeps
// the subscriptions' numbers (histograms are not goroutine-safe), files them per second for the
// timeline, and publishes an immutable view a few times a second.

// subReportKind is what a subscriber reports.
type subReportKind uint8

const (
	repNote       subReportKind = iota // a notification
	repDialed                          // a connection opened (dur: how long it took)
	repSubscribed                      // the node accepted the subscription (dur: the call's time)
	repRefused                         // the node refused it (class: the code, msg: its message)
	repDialFailed                      // a connection failed to open (class)
	repDisconnect                      // a connection ended under the run (class)
)

// subReport is one thing a subscriber saw.
type subReport struct {
	kind  subReportKind
	table uint16
	sub   int32
	at    int64 // ns since the run's start
	dur   int64 // ns
	// A notification's event, its block's timestamp (Unix seconds, when hasTS), and what the
	// subscriber's head sequence made of it.
	key   uint64
	ts    int64
	hasTS bool
	gap   int64
	dup   bool
	reorg bool
	// resub marks a subscription made after a disconnect; subscribed, a disconnect of a
	// connection that held one.
	resub      bool
	subscribed bool
	class, msg string
}

// Book timings: how long after a second ends its row is filed (reports still in a
// subscriber's hands land in it), how long an event waits for the subscribers that have not
// had it yet before its spread is settled, and how often a view is published.
const (
	subRowGrace   = 200 * time.Millisecond
	spreadWait    = 10 * time.Second
	subPublish    = 250 * time.Millisecond
	subReportsBuf = 1 << 14
)

// subBook owns the subscriptions' numbers.
type subBook struct {
	start     time.Time
	startWall int64 // the run's start in Unix ns, for heads' lag behind their timestamps
	events    *EventLog
	label     string // "NAME: " of a target's subscriptions in a run of several; else ""
	in        chan subReport
	done      chan struct{}
	tables    []*subTable
	nextSec   int           // the next second to file
	ended     time.Duration // when the book finished (0 while it runs): its figures' end

	mu   sync.Mutex
	rows [][]SubRow // per second of the run, one SubRow per table; nil until filed

	latest atomic.Pointer[[]SubStats]
	snaps  chan chan subSnapshot // a snapshot's request for the figures with their histograms
}

// subSnapshot is the figures of every table with their histograms, taken at one instant.
type subSnapshot struct {
	subs []SubStats
	err  error
}

// newSubBook makes the book of a run's subscriptions (a target's, with several: label names it
// in the events).
func newSubBook(subs []Subscription, start time.Time, events *EventLog, label string) *subBook {
	b := &subBook{start: start, startWall: start.UnixNano(), events: events, label: label,
		in: make(chan subReport, subReportsBuf), done: make(chan struct{}), snaps: make(chan chan subSnapshot)}
	for i := range subs {
		b.tables = append(b.tables, newSubTable(&subs[i]))
	}
	b.publish()
	return b
}

// run takes reports until in is closed, then settles everything and returns.
func (b *subBook) run() {
	defer close(b.done)
	tick := time.NewTicker(subPublish)
	defer tick.Stop()
	for {
		select {
		case r, ok := <-b.in:
			if !ok {
				b.finish(time.Since(b.start))
				return
			}
			b.take(r)
		case <-tick.C:
			now := time.Since(b.start)
			b.fileUpTo(now - subRowGrace)
			for _, t := range b.tables {
				t.settle(int64(now), false)
			}
			b.publish()
		case reply := <-b.snaps:
			reply <- b.snapshot()
		}
	}
}

// Snapshot is every table's figures with their histograms, for a snapshot of the run: the
// book's goroutine takes them while it runs (the histograms are its alone), the caller once
// it has finished.
func (b *subBook) Snapshot() ([]SubStats, error) {
	reply := make(chan subSnapshot, 1)
	select {
	case b.snaps <- reply:
		s := <-reply
		return s.subs, s.err
	case <-b.done:
		s := b.snapshot()
		return s.subs, s.err
	}
}

// snapshot takes the figures and encodes the histograms.
func (b *subBook) snapshot() subSnapshot {
	now := b.clock()
	out := make([]SubStats, len(b.tables))
	for i, t := range b.tables {
		out[i] = t.stats(now)
		var err error
		if out[i].Histograms, err = t.histograms(); err != nil {
			return subSnapshot{err: err}
		}
	}
	return subSnapshot{subs: out}
}

// take counts one report.
func (b *subBook) take(r subReport) {
	if int(r.table) >= len(b.tables) {
		return
	}
	b.fileUpTo(time.Duration(r.at))
	t := b.tables[r.table]
	t.observe(r.at)
	if r.kind == repNote {
		lag := int64(-1)
		if r.hasTS {
			lag = max(b.startWall+r.at-r.ts*int64(time.Second), 0)
		}
		t.note(r, lag)
		return
	}
	if first := t.count(r); first != "" {
		b.events.Add("subscribe", b.label+t.spec.Name+": "+first)
	}
}

// fileUpTo files the row of every second that ended before now.
func (b *subBook) fileUpTo(now time.Duration) {
	for time.Duration(b.nextSec+1)*time.Second <= now {
		b.file(b.nextSec, time.Second)
	}
}

// file closes second sec (span long) into its row.
func (b *subBook) file(sec int, span time.Duration) {
	end := int64(time.Duration(sec)*time.Second + span)
	row := make([]SubRow, len(b.tables))
	for i, t := range b.tables {
		t.observe(end)
		row[i] = t.closeSecond(span)
	}
	b.mu.Lock()
	for len(b.rows) < sec {
		b.rows = append(b.rows, nil)
	}
	b.rows = append(b.rows, row)
	b.mu.Unlock()
	b.nextSec = sec + 1
}

// finish settles every event still waiting, files the last, partial second and publishes the
// final view.
func (b *subBook) finish(now time.Duration) {
	b.ended = now
	b.fileUpTo(now)
	for _, t := range b.tables {
		t.settle(int64(now), true)
	}
	if span := now - time.Duration(b.nextSec)*time.Second; span > 0 {
		b.file(b.nextSec, span)
	}
	b.publish()
}

// clock is the time since the run's start, or when the book finished: its figures stop there.
func (b *subBook) clock() time.Duration {
	if b.ended > 0 {
		return b.ended
	}
	return time.Since(b.start)
}

// publish stores a fresh view of every table as of now.
func (b *subBook) publish() {
	now := b.clock()
	view := make([]SubStats, len(b.tables))
	for i, t := range b.tables {
		view[i] = t.stats(now)
	}
	b.latest.Store(&view)
}

// At is second t's rows, one per subscription; nil when not filed (yet).
func (b *subBook) At(t int) []SubRow {
	b.mu.Lock()
	defer b.mu.Unlock()
	if t < 0 || t >= len(b.rows) {
		return nil
	}
	return b.rows[t]
}

// View is the latest published figures; never modified once returned.
func (b *subBook) View() []SubStats { return *b.latest.Load() }

// firstOf returns the message for the first time key is counted in m, else "".
func firstOf(m map[string]int64, key, format string, args ...any) string {
	m[key]++
	if m[key] == 1 {
		return fmt.Sprintf(format, args...)
	}
	return ""
}
