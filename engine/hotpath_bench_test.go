package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// rpcOKReordered is rpcOKBody's answer with its members in another order: the same answer.
var rpcOKReordered = []byte(`{"result":{"value":99999,"context":{"slot":1234}},"id":1,"jsonrpc":"2.0"}`)

// BenchmarkHotPath measures one request through the whole per-request path on one goroutine:
// the scheduler hands out a due job (emit), a worker takes it, picks from the mix, sends it
// through fasthttp (to an in-memory server), classifies the answer, files the sample and hands
// full batches to the aggregator. It must allocate nothing per request.
func BenchmarkHotPath(b *testing.B) { benchHotPath(b, 0, false) }

// BenchmarkHotPathTwoTargets is BenchmarkHotPath for a run with two targets side by side: the
// fan-out picks the request once and hands it to both lanes, whose workers each send it to
// their own in-memory server. One op is one scheduled request, so its time against
// BenchmarkHotPath's is the cost of the second target (the goal: at most 2.1×). It
// must allocate nothing per request either.
func BenchmarkHotPathTwoTargets(b *testing.B) { benchHotPath(b, 2, false) }

// BenchmarkHotPathTwoTargetsCompared is BenchmarkHotPathTwoTargets with the answers compared
// (package answers' Comparer), its time against BenchmarkHotPathTwoTargets' the cost of the
// comparison per request (the goal: at most 25 % more). The second target answers
// the same JSON with its members in another order, so both answers are parsed and hashed:
// answers alike to the byte, as two nodes of one make give, cost less (one parse).
func BenchmarkHotPathTwoTargetsCompared(b *testing.B) { benchHotPath(b, 2, true) }

// benchHotPath runs the hot path of a run with targets side by side (0: the single target's
// own path), comparing their answers when compare.
func benchHotPath(b *testing.B, targets int, compare bool) {
	cfg := clientConfig("http://node.test:8899/")
	// The single call is matched to its answer by id, as every JSON-RPC request of a profile is.
	cfg.Requests[0].RPC = ParseRPCCalls(cfg.Requests[0].Body)
	cfg.Plan = Plan{Stages: []Stage{{Rate: 1e6, Duration: time.Hour}}}
	cfg.Backlog = 1 << 10 // one job waits at a time
	for i := range targets {
		cfg.Targets = append(cfg.Targets, Target{Name: string(rune('a' + i)), URL: cfg.URL})
	}
	counters := NewCounters(1)
	counters.InitRequests(len(cfg.Requests))
	start := time.Now()
	events := NewEventLog(start)
	var lanes []*lane
	for i := range max(targets, 1) {
		l := &lane{index: i, cfg: cfg, counters: counters}
		if targets > 0 {
			l.cfg = laneConfig(cfg, i)
		}
		if i > 0 {
			l.counters = counters.sharingPlan()
		}
		answer := rpcOKBody
		if i > 0 {
			answer = rpcOKReordered
		}
		l.client = memTarget(b, l.cfg, l.counters, func(ctx *fasthttp.RequestCtx) {
			ctx.SetContentType("application/json")
			ctx.SetBody(answer)
		})
		l.agg = NewAggregator(l.cfg, l.counters, events, fixedPlan, start, time.Hour)
		go l.agg.Run()
		defer l.agg.Finish("done")
		l.jobs = make(chan job, cfg.Backlog)
		lanes = append(lanes, l)
	}
	sched := NewScheduler(lanes[0].cfg, counters, events, start)
	lanes[0].jobs = sched.jobs
	var cmp answerComparer
	if targets > 0 {
		cfg.CompareAnswers = compare
		var err error
		if cmp, err = newComparer(cfg); err != nil {
			b.Fatal(err)
		}
		sched.fan = newFanout(cfg, lanes, cmp)
	}
	workers := make([]worker, len(lanes))
	for i, l := range lanes {
		p := &pool{cfg: l.cfg, client: l.client, sched: sched, agg: l.agg, counters: l.counters, start: start, mix: newMix(cfg.Requests), jobs: l.jobs, lane: i}
		workers[i] = worker{p: p, snd: l.client.NewSender(), rng: rand.New(rand.NewPCG(1, 2)), b: l.agg.getBatch()}
	}
	r := schedRun{s: sched, stages: cfg.Plan.Stages}
	r.enterStage(0, 0)
	ctx := context.Background()
	one := func() {
		due := r.seg.due()
		if r.emit(due, due) { // exactly one job is due
			b.Fatal("schedule ended")
		}
		for i := range workers {
			w := &workers[i]
			j := <-w.p.jobs
			w.p.counters.Stage(int(j.stage)).Sent.Add(1)
			w.send(ctx, j, -1, nil)
		}
	}
	for i := 0; i < 4*batchSize; i++ { // warm the pools and buffers first
		one()
	}
	b.ReportAllocs()
	cpu0, ok0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		one()
	}
	b.StopTimer()
	// The process's CPU, the in-memory servers' included (the same share of it per target):
	// wall time hides the work of the other goroutines.
	if cpu1, ok1 := processCPU(); ok0 && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
	if cmp != nil { // the comparison did compare: every request, all alike
		if t := cmp.Live().Totals; t.Compared < int64(b.N) || t.Match != t.Compared {
			b.Fatalf("compared %d of %d requests, %d alike", t.Compared, b.N, t.Match)
		}
	}
}
