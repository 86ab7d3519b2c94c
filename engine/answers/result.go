package answers

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// Live returns the counts so far, without examples: cheap enough for a dashboard's frames.
// Requests some target has not answered yet are not in it.
func (c *Comparer) Live() Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.copyBooks()
}

// Result returns the run's comparison: the counts, the pairs' counts and the examples kept.
// Called at the end, it counts a request some target never answered as incomplete (without
// changing the books: an answer that still comes is counted once, by a later call).
func (c *Comparer) Result() *Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.copyBooks()
	for _, p := range c.pending {
		total := c.classify(p) // fills c.kinds: called first
		r.add(p.request, total, c.kinds)
	}
	examples := slices.Clone(c.kept)
	// By request name, the weightiest kind first, then in the order they were kept.
	slices.SortStableFunc(examples, func(a, b kept) int {
		return cmp.Or(strings.Compare(a.ex.Request, b.ex.Request), cmp.Compare(b.k, a.k), cmp.Compare(a.seq, b.seq))
	})
	for _, e := range examples {
		r.Examples = append(r.Examples, e.ex)
	}
	return &r
}

// copyBooks is a copy of the counts nothing else shares. Called with c.mu held.
func (c *Comparer) copyBooks() Result {
	r := c.books
	r.Targets = slices.Clone(r.Targets)
	r.ByRequest = maps.Clone(r.ByRequest)
	r.Pairs = slices.Clone(r.Pairs)
	return r
}
