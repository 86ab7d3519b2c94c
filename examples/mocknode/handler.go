package mocknode

import (
	"encoding/json"
	"time"

	"github.com/valyala/fasthttp"
)

// Fixed answers outside JSON-RPC. The limiter's body is deliberately not a JSON-RPC error, so
// a tester counts it by its HTTP status and not also as an RPC error.
const (
	limitedBody     = `{"error":"too many requests"}`
	notPostBody     = `{"error":"JSON-RPC needs POST"}`
	contentTypeJSON = "application/json"
)

// handle is the fasthttp handler: the stats endpoints, else JSON-RPC.
func (n *Node) handle(ctx *fasthttp.RequestCtx) {
	switch string(ctx.Path()) {
	case "/stats":
		n.writeStats(ctx, false)
		return
	case "/stats/reset", "/reset":
		n.writeStats(ctx, true)
		return
	case "/health":
		if ctx.IsGet() || ctx.IsHead() {
			ctx.SetBodyString("ok")
			return
		}
	}
	if isUpgrade(ctx) {
		n.upgradeWS(ctx)
		return
	}
	n.serveRPC(ctx)
}

// serveRPC answers one JSON-RPC HTTP request: limiter, node, latency model, count.
func (n *Node) serveRPC(ctx *fasthttp.RequestCtx) {
	if !ctx.IsPost() {
		ctx.Response.Header.Set("Allow", "POST")
		n.finish(ctx, fasthttp.StatusMethodNotAllowed, notPostBody, nil)
		return
	}
	now := n.now()
	var held time.Duration
	if n.limiter != nil {
		ok, delay := n.limiter.Admit(now)
		if !ok {
			// Rejected as nginx rejects: at once, never reaching the node.
			n.finish(ctx, n.cfg.LimitStatus, limitedBody, nil)
			return
		}
		held = delay
	}

	s, _ := n.scratch.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	s.tally.reset()
	n.answer(s, ctx.PostBody(), now)
	n.sleepUntil(n.latency.due(now.Add(held), s.tally.calls, s.tally.items))

	ctx.SetContentType(contentTypeJSON)
	ctx.SetStatusCode(fasthttp.StatusOK)
	ctx.SetBody(s.out) // copies into fasthttp's own pooled buffer, so s can go back now
	n.counters.commit(fasthttp.StatusOK, &s.tally)
	n.putScratch(s)
}

// finish writes a fixed answer and counts it.
func (n *Node) finish(ctx *fasthttp.RequestCtx, status int, body string, t *tally) {
	ctx.SetContentType(contentTypeJSON)
	ctx.SetStatusCode(status)
	ctx.SetBodyString(body)
	n.counters.commit(status, t)
}

// sleepUntil holds the answer until due, or until the node is closing (answers then leave at
// once so shutdown is not held up by latency or stalls). Timers are pooled: one per request
// would be the handler's only allocation.
func (n *Node) sleepUntil(due time.Time) {
	d := due.Sub(n.now())
	if d <= 0 {
		return
	}
	t, _ := n.timers.Get().(*time.Timer)
	if t == nil {
		t = time.NewTimer(d)
	} else {
		t.Reset(d)
	}
	select {
	case <-t.C:
	case <-n.closing:
		t.Stop() // since Go 1.23 a stopped timer's channel holds no stale tick for the next Reset
	}
	n.timers.Put(t)
}

// writeStats answers GET /stats (and the reset endpoints, which report what they zeroed).
func (n *Node) writeStats(ctx *fasthttp.RequestCtx, reset bool) {
	var st Stats
	if reset {
		st = n.ResetStats()
	} else {
		st = n.Stats()
	}
	body, err := json.Marshal(st)
	if err != nil { // cannot happen for maps of strings to integers; answer honestly anyway
		ctx.Error(err.Error(), fasthttp.StatusInternalServerError)
		return
	}
	ctx.SetContentType(contentTypeJSON)
	ctx.SetBody(body)
}
