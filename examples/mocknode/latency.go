package mocknode

import (
	"math/rand/v2"
	"sync"
	"time"
)

// maxExtra caps the latency added to one answer, so absurd batch×per-item products cannot
// overflow a time.Duration.
const maxExtra = 24 * time.Hour

// latencyModel decides when an answer is due. It owns the single FIFO server used for Capacity
// and the stall schedule; everything else is arithmetic on the arrival time.
type latencyModel struct {
	base, jitter, perItem time.Duration
	service               float64 // ns of server time per call; 0 = unlimited capacity
	stallEvery, stallFor  time.Duration
	epoch                 time.Time // stall windows are counted from here

	mu   sync.Mutex
	next time.Time // when the server is free again
}

func newLatencyModel(cfg Config, epoch time.Time) *latencyModel {
	m := &latencyModel{
		base:       cfg.Latency,
		jitter:     cfg.Jitter,
		perItem:    cfg.PerItem,
		stallEvery: cfg.StallEvery,
		stallFor:   cfg.StallFor,
		epoch:      epoch,
	}
	if cfg.Capacity > 0 {
		m.service = float64(time.Second) / float64(cfg.Capacity)
	}
	return m
}

// due is when the answer to a request reaching the node at arrive is ready. calls is the
// number of JSON-RPC calls in it (each takes one service slot), items its per-item cost units
// (a call is one item, a listing call one per element returned: see Config.PerItem).
//
// The order mirrors a real node: wait for the server (FIFO, so past capacity the queue and the
// latency grow without bound, like a saturated node), then the processing latency, then — if
// the answer would leave during a stall — wait for the stall to end.
func (m *latencyModel) due(arrive time.Time, calls, items int) time.Time {
	t := m.serve(arrive, calls)
	extra := m.base
	if m.jitter > 0 {
		extra += time.Duration(rand.Int64N(int64(m.jitter)))
	}
	if m.perItem > 0 && items > 0 {
		if per := float64(m.perItem) * float64(items); per < float64(maxExtra) {
			extra += time.Duration(per)
		} else {
			extra += maxExtra
		}
	}
	return m.afterStall(t.Add(min(extra, maxExtra)))
}

// serve is when the server has served calls arriving at arrive, after the calls queued before
// them (FIFO); arrive itself when the capacity is unlimited. A notification that queues
// (Config.NotifyQueued) is served here as one call.
func (m *latencyModel) serve(arrive time.Time, calls int) time.Time {
	if m.service <= 0 {
		return arrive
	}
	busy := time.Duration(m.service * float64(max(calls, 1)))
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.next.Before(arrive) {
		m.next = arrive
	}
	m.next = m.next.Add(busy)
	return m.next
}

// afterStall moves t to the end of the stall window [k×every, k×every+for), k ≥ 1, that holds
// it, if any.
func (m *latencyModel) afterStall(t time.Time) time.Time {
	if m.stallEvery <= 0 {
		return t
	}
	off := t.Sub(m.epoch)
	if off < m.stallEvery {
		return t
	}
	start := off - off%m.stallEvery
	if off-start < m.stallFor {
		return m.epoch.Add(start + m.stallFor)
	}
	return t
}
