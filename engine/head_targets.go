package engine

import (
	"context"
	"sync"
)

// The head of a run with several targets (see Target): each target's head is followed by a
// tracker of its own, which keeps it in its lane's cell, the lane's timeline and its Chain
// section; the templates' {{head}} and {{recent N}} draw from the lowest of them, so a request
// about "the latest" blocks asks about blocks every target has. The reference node, one for
// all, is read by the first target's tracker and shown beside each.

// primeTargets reads every target's head into a cell of its own, the reference node's once,
// and stores the lowest in cfg.Head.Cell.
func primeTargets(ctx context.Context, cfg *Config) error {
	cells := make([]*HeadCell, len(cfg.Targets))
	for i := range cfg.Targets {
		cells[i] = &HeadCell{}
		if err := primeOne(ctx, laneConfig(cfg, i), cells[i], i == 0); err != nil {
			return err
		}
	}
	cfg.Head.targets = cells
	cfg.Head.Cell.Store(lowestHead(cells))
	return nil
}

// lowestHead is the lowest of the heads known in cells; 0 when none is.
func lowestHead(cells []*HeadCell) uint64 {
	var low uint64
	known := false
	for _, c := range cells {
		if c.Known() && (!known || c.Load() < low) {
			low, known = c.Load(), true
		}
	}
	return low
}

// lowestCell keeps out at the lowest head of cells, updated by each tracker after it stores
// a head read. The lock makes each update read and store as one, so two trackers that read at
// once cannot leave the older minimum behind.
type lowestCell struct {
	mu    sync.Mutex
	cells []*HeadCell
	out   *HeadCell
}

// update stores the lowest head in out; nothing for a run of one target (nil).
func (c *lowestCell) update() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Store(lowestHead(c.cells))
}

// shareHeads ties the lanes' trackers together: their events name their target, the lowest of
// their heads goes to cell (the templates'), and only the first reads the reference node,
// whose book the others show.
func shareHeads(lanes []*lane, cell *HeadCell) {
	low := &lowestCell{out: cell}
	for _, l := range lanes {
		low.cells = append(low.cells, l.head.cfg.Cell)
	}
	for i, l := range lanes {
		l.head.lowest = low
		l.head.whose = l.name + "'s "
		if i > 0 {
			l.head.ref, l.head.rb = nil, lanes[0].head.rb
		}
	}
}
