package engine

import (
	"context"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// BenchmarkSend measures one request through the whole client path (request write, in-memory
// transport, fasthttp server, response read, header scan, classification). The server's own
// work and allocations are included, so the figures are an upper bound of the client's.
func BenchmarkSend(b *testing.B) {
	bodies := []struct {
		name string
		body []byte
	}{
		{"ok", rpcOKBody},
		{"rpc-error", rpcErrBody},
		{"batch", rpcBatchBody},
	}
	for _, bb := range bodies {
		b.Run(bb.name, func(b *testing.B) {
			c := memTarget(b, clientConfig("http://node.test:8899/"), NewCounters(1), func(ctx *fasthttp.RequestCtx) {
				ctx.SetContentType("application/json")
				ctx.SetBody(bb.body)
			})
			s := c.NewSender()
			batch := &Batch{Samples: make([]Sample, 1), RPCErrors: make([]RPCError, 0, 8)}
			ctx := context.Background()
			start := time.Now()
			smp := &batch.Samples[0]             // Reset keeps the storage; the worker writes samples in place
			s.Send(ctx, 0, smp, batch, 0, start) // warm: dial, buffers, seen codes
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				batch.Reset()
				s.Send(ctx, 0, smp, batch, 0, start)
			}
			if smp.Err != ErrNone {
				b.Fatalf("err %v", smp.Err)
			}
		})
	}
}

// BenchmarkClassify measures classification alone. The first cases are answers to a request
// that is not JSON-RPC (a raw API): "ok" takes the fast path (no "error" bytes, no parse);
// "ok-parsed" is the same answer with "error":null, which must be parsed, to show what the
// fast path saves. The "calls-" cases answer JSON-RPC calls, matched by id, so always parsed.
func BenchmarkClassify(b *testing.B) {
	one, three := ParseRPCCalls([]byte(clientTestBody)), ParseRPCCalls(rpcBatchCalls)
	cases := []struct {
		name   string
		status int
		body   []byte
		calls  *RPCCalls
	}{
		{"ok", 200, rpcOKBody, nil},
		{"ok-parsed", 200, []byte(`{"jsonrpc":"2.0","id":1,"error":null,"result":{"context":{"slot":1234},"value":99999}}`), nil},
		{"error", 200, rpcErrBody, nil},
		{"batch", 200, rpcBatchBody, nil},
		{"429", 429, []byte(`Too Many Requests`), nil},
		{"calls-ok", 200, rpcOKBody, one},
		{"calls-error", 200, rpcErrBody, one},
		{"calls-batch", 200, rpcBatchBody, three},
	}
	for _, cc := range cases {
		b.Run(cc.name, func(b *testing.B) {
			c := NewClassifier(DefaultLimits())
			bt := &Batch{RPCErrors: make([]RPCError, 0, 8)}
			var s Sample
			c.Classify(&s, cc.status, cc.body, cc.calls, 0, bt)
			b.ReportAllocs()
			b.SetBytes(int64(len(cc.body)))
			for b.Loop() {
				bt.Reset()
				c.Classify(&s, cc.status, cc.body, cc.calls, 0, bt)
			}
		})
	}
}

// MemTargetForBench is memTarget for the benchmarks of package engine_test: they compile their
// request templates with package profiles, which imports engine, so they cannot live in
// package engine itself.
func MemTargetForBench(b *testing.B, cfg *Config, h fasthttp.RequestHandler) *Client {
	return memTarget(b, cfg, NewCounters(1), h)
}
