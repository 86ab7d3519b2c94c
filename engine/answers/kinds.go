package answers

// kind is a Kind as an index, in the order a request's kind is chosen when its pairs disagree:
// the first that any pair shows wins. An error against a result is the loudest fact (seed 001's
// branch that answered -32602 to everything), a mismatch outweighs a head skew (which may
// explain it away), and a side with nothing to compare only says less.
type kind uint8

const (
	kMatch kind = iota
	kIncomplete
	kHeadSkew
	kMismatch
	kErrorVsResult
	nKinds
)

// Kind names k.
func (k kind) Kind() Kind {
	switch k {
	case kIncomplete:
		return Incomplete
	case kHeadSkew:
		return HeadSkew
	case kMismatch:
		return Mismatch
	case kErrorVsResult:
		return ErrorVsResult
	}
	return Match
}

// pairKind compares two targets' answers to one request.
func pairKind(a, b *slot) kind {
	switch {
	case !a.done || !b.done || a.d.state != stateOK || b.d.state != stateOK:
		return kIncomplete
	case a.d.sum == b.d.sum:
		return kMatch
	case a.d.errs != b.d.errs:
		return kErrorVsResult
	case a.head != 0 && b.head != 0 && a.head != b.head:
		return kHeadSkew
	}
	return kMismatch
}

// classify fills c.kinds with each pair's kind and returns the request's: Match only when all
// agree, else the weightiest a pair shows. Called with c.mu held.
func (c *Comparer) classify(p *pending) kind {
	c.kinds = c.kinds[:0]
	total := kMatch
	for _, pr := range c.pairs {
		k := pairKind(&p.answers[pr[0]], &p.answers[pr[1]])
		c.kinds = append(c.kinds, k)
		total = max(total, k)
	}
	return total
}

// add counts one request of name request: its kind and its pairs' kinds.
func (r *Result) add(request string, total kind, pairs []kind) {
	r.Totals.add(total)
	n := r.ByRequest[request]
	n.add(total)
	r.ByRequest[request] = n
	for i, k := range pairs {
		r.Pairs[i].Counts.add(k)
	}
}

func (n *Counts) add(k kind) {
	n.Compared++
	switch k {
	case kMatch:
		n.Match++
	case kMismatch:
		n.Mismatch++
	case kErrorVsResult:
		n.ErrorVsResult++
	case kHeadSkew:
		n.HeadSkew++
	case kIncomplete:
		n.Incomplete++
	}
}

// wantsExample: a request of this name could still be kept as an example, so its answers are
// copied as they come. Incomplete examples are kept only when the bodies are at hand anyway:
// a target that keeps failing must not make every request copy its answers for the whole run.
func (m *method) wantsExample(keep int) bool {
	return m.kept[kMismatch] < keep || m.kept[kErrorVsResult] < keep || m.kept[kHeadSkew] < keep
}

// reserveExample decides whether the request just counted (kinds in c.kinds, its last answer
// from target last) is kept as an example, and of which pair; it takes the example's place.
// Called with c.mu held.
func (c *Comparer) reserveExample(m *method, p *pending, last int, total kind) (pair int, ok bool) {
	if total == kMatch || m.kept[total] >= c.opt.Keep {
		return 0, false
	}
	have := func(t int) bool { return t == last || p.answers[t].copied || p.answers[t].d.state == stateMissing }
	for i, k := range c.kinds {
		a, b := c.pairs[i][0], c.pairs[i][1]
		if k != total || !have(a) || !have(b) {
			continue
		}
		// An incomplete pair is worth showing only for what a side did answer: text that is
		// no JSON (a proxy's HTML page, say). Two missing sides show nothing.
		if k == kIncomplete && p.answers[a].d.state != stateNotJSON && p.answers[b].d.state != stateNotJSON {
			continue
		}
		m.kept[total]++
		return i, true
	}
	return 0, false
}
