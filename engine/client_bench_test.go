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
	bodies := []answerCase{
		{name: "ok", body: rpcOKBody},
		{name: "rpc-error", body: rpcErrBody},
		{name: "batch", body: rpcBatchBody},
	}
	for _, bb := range bodies {
		b.Run(bb.name, func(b *testing.B) {
			c := memTarget(b, clientConfig("http://node.test:8899/"), NewCounters(1), func(ctx *fasthttp.RequestCtx) {
				ctx.SetContentType("application/json")
				ctx.SetBody(bb.body)
			})
			benchSends(b, c)
		})
	}
}

// benchSends measures Sends of mix entry 0 through c, one after another, as a worker makes
// them: the batch and the sample are reused, the first send (dial, buffers, seen codes) is
// not measured.
func benchSends(b *testing.B, c *Client) {
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
}

// BenchmarkClassify measures classification alone, of each of typicalAnswers: parsed (the
// Classifier forgets the last answer before each) and again (the last answer once more, which
// an answer without an error is recalled from the memo, classMemo).
func BenchmarkClassify(b *testing.B) {
	for _, cc := range typicalAnswers() {
		for _, again := range []bool{false, true} {
			name := cc.name + "/parsed"
			if again {
				name = cc.name + "/again"
			}
			b.Run(name, func(b *testing.B) {
				c := NewClassifier(DefaultLimits())
				bt := &Batch{RPCErrors: make([]RPCError, 0, 8), Faults: make([]CallFault, 0, 8)}
				var s Sample
				c.Classify(&s, cc.status, cc.body, cc.calls, 0, bt)
				b.ReportAllocs()
				b.SetBytes(int64(len(cc.body)))
				for b.Loop() {
					bt.Reset()
					c.memo.valid = c.memo.valid && again
					c.Classify(&s, cc.status, cc.body, cc.calls, 0, bt)
				}
			})
		}
	}
}

// MemTargetForBench is memTarget for the benchmarks of package engine_test: they compile their
// request templates with package profiles, which imports engine, so they cannot live in
// package engine itself.
func MemTargetForBench(b *testing.B, cfg *Config, h fasthttp.RequestHandler) *Client {
	return memTarget(b, cfg, NewCounters(1), h)
}
