package answers

import (
	"errors"
	"fmt"
	"hash/maphash"
	"sync"
)

// Comparer compares the targets' answers request by request. Add is called from every target's
// workers at once; Live and Result from anywhere.
//
// Work is split so that the lock is held only for bookkeeping: an answer is parsed and hashed
// outside it (each goroutine with a pooled parser), then, under it, its digest is filed with its
// request's pending entry; the target that answers last counts the request and frees the entry.
// An answer is not parsed at all when an earlier one was the same to the byte (knownDigest).
// An example's diff is built after the lock is let go, from bodies only that request holds.
type Comparer struct {
	opt     Options
	ignore  map[string]*ignoreSet // read only after New
	seed    maphash.Seed
	scratch sync.Pool // *canon
	pairs   [][2]int  // the pairs of targets, in Result.Pairs' order

	mu      sync.Mutex
	pending map[uint64]*pending
	free    []*pending // pending entries to reuse: a run at a steady rate allocates none
	methods map[string]*method
	books   Result // the counts, without examples
	kinds   []kind // scratch: the pairs' kinds of the request being counted
	kept    []kept
}

// pending is one request some target has not answered yet.
type pending struct {
	request string
	got     int
	answers []slot // by target
}

// slot is one target's answer to a pending request.
type slot struct {
	done   bool
	d      digest
	raw    uint64 // the body's hash as it came (a shortcut for answers alike to the byte)
	head   uint64
	body   []byte // a copy, only while the request may become an example
	copied bool   // body holds this answer
}

// method is what is known of one request name beyond its counts.
type method struct {
	kept [nKinds]int // examples kept, by kind
}

// kept is one example, with the order it was kept in.
type kept struct {
	seq uint64
	k   kind
	ex  Example
}

// Defaults of Options (Keep's is defaultKeep, beside Sum).
const (
	defaultMaxBytes = 4096
	// maxPooledBody: a pending entry keeps its body buffers for reuse up to this size, so one
	// huge answer does not stay pinned for the rest of the run.
	maxPooledBody = 64 << 10
	// maxFree bounds the entries kept for reuse: a burst of requests in flight (a target that
	// stalls) does not stay allocated after it.
	maxFree = 4096
)

// New checks opt and makes a Comparer. It refuses fewer than two targets, empty or repeated
// target names, a negative Keep or MaxBytes and a bad ignore path (CheckIgnorePath).
func New(opt Options) (*Comparer, error) {
	if len(opt.Targets) < 2 {
		return nil, fmt.Errorf("comparing answers needs at least 2 targets, got %d: name another target", len(opt.Targets))
	}
	seen := make(map[string]bool, len(opt.Targets))
	for i, t := range opt.Targets {
		switch {
		case t == "":
			return nil, fmt.Errorf("target %d has no name: give every target a name", i+1)
		case seen[t]:
			return nil, fmt.Errorf("target name %q is given twice: give every target its own name", t)
		}
		seen[t] = true
	}
	if opt.Keep < 0 || opt.MaxBytes < 0 {
		return nil, errors.New("keep and the size limit of examples must not be negative")
	}
	if opt.Keep == 0 {
		opt.Keep = defaultKeep
	}
	if opt.MaxBytes == 0 {
		opt.MaxBytes = defaultMaxBytes
	}
	ignore, err := compileIgnore(opt.Ignore)
	if err != nil {
		return nil, err
	}
	opt.Targets = append([]string(nil), opt.Targets...)
	c := &Comparer{
		opt:     opt,
		ignore:  ignore,
		seed:    maphash.MakeSeed(),
		pending: make(map[uint64]*pending),
		methods: make(map[string]*method),
	}
	c.scratch.New = func() any { return &canon{numbers: opt.NumbersByValue} }
	for a := range opt.Targets {
		for b := a + 1; b < len(opt.Targets); b++ {
			c.pairs = append(c.pairs, [2]int{a, b})
		}
	}
	c.books = Result{Targets: opt.Targets, ByRequest: make(map[string]Counts), Keep: opt.Keep}
	for _, pr := range c.pairs {
		c.books.Pairs = append(c.books.Pairs, PairCounts{A: opt.Targets[pr[0]], B: opt.Targets[pr[1]]})
	}
	return c, nil
}

// Add files one target's answer to request seq (its name and the body sent). Each target adds
// exactly one Answer per seq, Missing when it gave none; the last one counts the request. An
// answer of an unknown target, or a second one of a target for the same seq, is left out: it
// is the caller's mistake, and counting it would count a request twice.
func (c *Comparer) Add(seq uint64, request string, sent []byte, a Answer) {
	if a.Target < 0 || a.Target >= len(c.opt.Targets) {
		return
	}
	var raw uint64
	if !a.Missing {
		raw = maphash.Bytes(c.seed, a.Body)
	}
	c.mu.Lock()
	p := c.pending[seq]
	if p == nil {
		p = c.newPending(request)
		c.pending[seq] = p
	}
	if p.answers[a.Target].done {
		c.mu.Unlock()
		return
	}
	d, known := p.knownDigest(a, raw)
	if !known {
		// Parsing is the work, done without the lock: the request cannot be counted
		// meanwhile, as this target's answer is still to come.
		c.mu.Unlock()
		cn := c.scratch.Get().(*canon)
		d = cn.digest(a.Body, c.ignore[request], c.seed)
		c.scratch.Put(cn)
		c.mu.Lock()
		if c.pending[seq] != p || p.answers[a.Target].done { // a second answer came meanwhile
			c.mu.Unlock()
			return
		}
	}
	c.file(seq, p, a, d, raw, sent)
}

// knownDigest is the digest of answer a (its body's raw hash) when it needs no parsing: a
// missing answer, or one the same to the byte as an answer already filed (two nodes of one
// make answer alike: then their keys are the same too, and only the first is parsed). Called
// with c.mu held.
func (p *pending) knownDigest(a Answer, raw uint64) (digest, bool) {
	if a.Missing {
		return digest{state: stateMissing}, true
	}
	for i := range p.answers {
		// A slot not filed, or filed missing, has no raw hash to match.
		if s := &p.answers[i]; s.done && s.d.state != stateMissing && s.raw == raw {
			return s.d, true
		}
	}
	return digest{}, false
}

// file files answer a (its digest d) with its request's entry p; the last answer counts the
// request and keeps it as an example if it is one. Called with c.mu held; lets go of it.
func (c *Comparer) file(seq uint64, p *pending, a Answer, d digest, raw uint64, sent []byte) {
	s := &p.answers[a.Target]
	s.done, s.d, s.raw, s.head = true, d, raw, a.Head
	p.got++
	m := c.method(p.request)
	if p.got < len(p.answers) {
		// The last target's body is read during its own Add; earlier ones are copied while
		// this request name may still give an example.
		if !a.Missing && m.wantsExample(c.opt.Keep) {
			s.body, s.copied = append(s.body[:0], a.Body...), true
		}
		c.mu.Unlock()
		return
	}
	delete(c.pending, seq)
	total := c.classify(p)
	c.books.add(p.request, total, c.kinds)
	pick, keep := c.reserveExample(m, p, a.Target, total)
	if !keep {
		c.release(p)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()

	ex := c.example(p, pick, a.Target, a.Body, sent, total)
	c.mu.Lock()
	c.kept = append(c.kept, kept{seq: seq, k: total, ex: ex})
	c.release(p)
	c.mu.Unlock()
}

// newPending takes a free entry or makes one. Called with c.mu held.
func (c *Comparer) newPending(request string) *pending {
	if n := len(c.free); n > 0 {
		p := c.free[n-1]
		c.free = c.free[:n-1]
		p.request = request
		return p
	}
	return &pending{request: request, answers: make([]slot, len(c.opt.Targets))}
}

// release clears an entry for reuse. Called with c.mu held.
func (c *Comparer) release(p *pending) {
	for i := range p.answers {
		b := p.answers[i].body[:0]
		if cap(b) > maxPooledBody {
			b = nil
		}
		p.answers[i] = slot{body: b}
	}
	p.got, p.request = 0, ""
	if len(c.free) < maxFree {
		c.free = append(c.free, p)
	}
}

// method returns the books of a request name, made on its first request. Called with c.mu held.
func (c *Comparer) method(name string) *method {
	m := c.methods[name]
	if m == nil {
		m = &method{}
		c.methods[name] = m
	}
	return m
}
