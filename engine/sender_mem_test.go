package engine

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// What a Sender allocates per send (nothing, once warm) and what it keeps.

// TestSendZeroAlloc: a warm Sender allocates nothing per request (the in-memory server's own
// allocations count too, so this is an upper bound), whatever the request: a fixed body, a
// Template with a request shape of its own, answers matched to calls, per send too.
func TestSendZeroAlloc(t *testing.T) {
	if raceEnabled() {
		t.Skip("under -race sync.Pool drops items at random, so fasthttp's pooled buffers are remade")
	}
	seq := ParseRPCCalls([]byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`))
	seq.PerSend = true
	batch := []byte(`[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}]`)
	tests := []struct {
		name     string
		requests []Request // nil: clientConfig's
		answers  [2][]byte // to a single request, to a batch
	}{
		// Fixed bodies, answered with a result …
		{"ok", nil, [2][]byte{rpcOKBody, rpcOKBody}},
		// … and with an error.
		{"rpc error", nil, [2][]byte{rpcErrBody, rpcErrBody}},
		// A Template, and one with a request shape (method, path, headers) of its own.
		{"template", []Request{
			{Name: "t", Body: []byte("x"), Template: &sizesTemplate{sizes: []int{50, 120, 80}}, Weight: 1, Items: 1},
			{Name: "shaped", Body: []byte("{}"), Method: "PUT", Path: "/x", Headers: []Header{{Name: "X-A", Value: "1"}}, Template: &sizesTemplate{sizes: []int{10}}, Weight: 1, Items: 1},
		}, [2][]byte{rpcOKBody, rpcOKBody}},
		// Answers matched to calls: ids read per send from a Template's rendering, and a batch
		// answered out of order.
		{"calls", []Request{
			{Name: "seq", Body: []byte("x"), Template: &seqIDTemplate{}, RPC: seq, Weight: 1, Items: 1},
			{Name: "batch", Body: batch, RPC: ParseRPCCalls(batch), Weight: 1, Items: 2},
		}, [2][]byte{[]byte(`{"jsonrpc":"2.0","id":7,"result":1}`), []byte(`[{"jsonrpc":"2.0","id":2,"result":1},{"jsonrpc":"2.0","id":1,"result":1}]`)}},
		// Results checked against expect rules, per send too, and broken: invalid calls
		// recorded by rule.
		{"expect", expectRequests(t, batch), [2][]byte{[]byte(`{"jsonrpc":"2.0","id":7,"result":null}`), []byte(`[{"jsonrpc":"2.0","id":2,"result":"0x1"},{"jsonrpc":"2.0","id":1,"result":12}]`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := clientConfig("http://node.test/")
			if tt.requests != nil {
				cfg.Requests = tt.requests
			}
			c := memTarget(t, cfg, NewCounters(1), func(ctx *fasthttp.RequestCtx) {
				ctx.SetBody(tt.answers[0])
				if body := ctx.Request.Body(); len(body) > 0 && body[0] == '[' {
					ctx.SetBody(tt.answers[1])
				}
			})
			s := c.NewSender()
			b := &Batch{Samples: make([]Sample, 1), RPCErrors: make([]RPCError, 0, 4), Faults: make([]CallFault, 0, 4)}
			start := time.Now()
			ctx := context.Background()
			smp := &b.Samples[0]
			for i := range 10 {
				s.Send(ctx, i%len(cfg.Requests), smp, b, 0, start)
			}
			i := 0
			n := testing.AllocsPerRun(200, func() {
				b.Reset()
				s.Send(ctx, i%len(cfg.Requests), smp, b, 0, start)
				i++
			})
			if n > 0 {
				t.Errorf("%v allocs per Send", n)
			}
		})
	}
}

// shapedClient is a Client for a mix of n requests of n shapes: a GET of its own path with an
// API key header each, as a target file replaying a REST API makes.
func shapedClient(t *testing.T, n int) *Client {
	t.Helper()
	cfg := manyRequests(n)
	for i := range cfg.Requests {
		cfg.Requests[i].Method = "GET"
		cfg.Requests[i].Path = "/v1/items/" + strconv.Itoa(i)
		cfg.Requests[i].Headers = []Header{{Name: "X-Api-Key", Value: "k" + strconv.Itoa(i)}}
	}
	cfg.URL, cfg.Timeout = "http://127.0.0.1:1/", time.Second
	c, err := NewClient(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSenderShapesBounded: a worker keeps a bounded number of requests prepared, whatever the
// number of shapes in the mix: each one kept per shape (about 1.2 KiB) cost connections ×
// shapes, 73 MiB for 64 connections and a target file of 1,000 paths. A shape prepared again
// after others took its place is sent as it should be.
func TestSenderShapesBounded(t *testing.T) {
	const shapes, senders, perSenderMax = 300, 16, 64 << 10
	c := shapedClient(t, shapes)
	before := heapAlloc()
	kept := make([]*Sender, senders)
	for i := range kept {
		s := c.NewSender()
		for k := range shapes {
			s.ex.(*http1Exchange).request(k)
		}
		kept[i] = s
	}
	if per := int64(heapAlloc()-before) / senders; per > perSenderMax {
		t.Errorf("a worker that sent %d shapes keeps %d bytes, want at most %d", shapes, per, perSenderMax)
	}
	s := kept[0]
	for _, k := range []int{0, 7, shapes - 1, 7, 3} {
		r := s.ex.(*http1Exchange).request(k)
		if got, want := string(r.Header.Method()), "GET"; got != want {
			t.Errorf("request %d: method %s, want %s", k, got, want)
		}
		if got, want := string(r.URI().Path()), c.cfg.Requests[k].Path; got != want {
			t.Errorf("request %d: path %s, want %s", k, got, want)
		}
		if got, want := string(r.Header.Peek("X-Api-Key")), c.cfg.Requests[k].Headers[0].Value; got != want {
			t.Errorf("request %d: X-Api-Key %q, want %q (one header, the shape's)", k, got, want)
		}
		if n := len(r.Header.PeekAll("X-Api-Key")); n != 1 {
			t.Errorf("request %d: %d X-Api-Key headers, want 1", k, n)
		}
	}
	runtime.KeepAlive(kept)
}

// fixedTemplate renders the same body every time: a templated body whose calls are still read
// per send.
type fixedTemplate []byte

func (f fixedTemplate) Append(dst []byte, _ *rand.Rand) []byte { return append(dst, f...) }

// expectRequests are requests with every kind of rule and costs: a templated single call
// (its calls read per send) that must have a result, and a batch whose results must be hex
// strings.
func expectRequests(t testing.TB, batch []byte) []Request {
	rules := []*ExpectRule{mustRule(t, ExpectPresent, "result", nil), mustRule(t, ExpectNonEmpty, "result", nil),
		mustRule(t, ExpectEquals, "result", "0x1"), mustRule(t, ExpectMatches, "result", "^0x")}
	body := []byte(`{"jsonrpc":"2.0","id":7,"method":"m"}`)
	one := ParseRPCCalls(body)
	one.PerSend = true
	if err := one.SetSpecs([]CallSpec{{Expect: &Expect{Rules: rules[:2]}, Cost: 3}}); err != nil {
		t.Fatal(err)
	}
	two := ParseRPCCalls(batch)
	if err := two.SetSpecs([]CallSpec{{Expect: &Expect{Rules: rules[2:]}, Cost: 5}, {Expect: &Expect{Rules: rules[3:]}, Cost: 7}}); err != nil {
		t.Fatal(err)
	}
	return []Request{
		{Name: "one", Body: body, Template: fixedTemplate(body), RPC: one, Weight: 1, Items: 1, Cost: 3},
		{Name: "batch", Body: batch, RPC: two, Weight: 1, Items: 2, Cost: 12},
	}
}
