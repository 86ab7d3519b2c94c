package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// BenchmarkHotPath measures one request through the whole per-request path on one goroutine:
// the scheduler hands out a due job (emit), a worker takes it, picks from the mix, sends it
// through fasthttp (to an in-memory server), classifies the answer, files the sample and hands
// full batches to the aggregator. It must allocate nothing per request.
func BenchmarkHotPath(b *testing.B) {
	cfg := clientConfig("http://node.test:8899/")
	// The single call is matched to its answer by id, as every JSON-RPC request of a profile is.
	cfg.Requests[0].RPC = ParseRPCCalls(cfg.Requests[0].Body)
	cfg.Plan = Plan{Stages: []Stage{{Rate: 1e6, Duration: time.Hour}}}
	cfg.Backlog = 1 << 20
	counters := NewCounters(1)
	client := memTarget(b, cfg, counters, func(ctx *fasthttp.RequestCtx) {
		ctx.SetContentType("application/json")
		ctx.SetBody(rpcOKBody)
	})
	start := time.Now()
	events := NewEventLog(start)
	sched := NewScheduler(cfg, counters, events, start)
	agg := NewAggregator(cfg, counters, events, fixedPlan, start, time.Hour)
	go agg.Run()
	defer agg.Finish("done")
	p := &pool{cfg: cfg, client: client, sched: sched, agg: agg, counters: counters, start: start, mix: newMix(cfg.Requests)}
	w := worker{p: p, snd: client.NewSender(), rng: rand.New(rand.NewPCG(1, 2)), b: agg.getBatch()}
	r := schedRun{s: sched, stages: cfg.Plan.Stages}
	r.enterStage(0, 0)
	ctx := context.Background()
	one := func() {
		due := r.seg.due()
		if r.emit(due, due) { // exactly one job is due
			b.Fatal("schedule ended")
		}
		j := <-sched.jobs
		counters.Stage(int(j.stage)).Sent.Add(1)
		w.send(ctx, j, -1, nil)
	}
	for i := 0; i < 4*batchSize; i++ { // warm the pools and buffers first
		one()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		one()
	}
}
