package engine_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/valyala/fasthttp"
)

// mixData is the small harvest of both chains the bundled mixes load in tests.
const mixData = "../profiles/testdata/harvest"

// BenchmarkSendMix is the send path of the bundled chain mixes beside a fixed body: a request
// picked by weight, its body rendered from the harvested lines, sent through fasthttp to an
// in-memory server, its ids read from this rendering (a raw templated body's may change per
// send) and its answer classified under the mix's expect rules. The bound: a mix costs
// at most 10 % more CPU per request than a fixed body. Each mix reports x-fixed, its time per
// request over a fixed body's, the two sent in alternating chunks of the same loop so that a
// load on the machine that comes and goes weighs on both alike; its ns/op is the mix's alone.
// Like BenchmarkSend, the in-memory server's own work is included, and every variant must
// allocate nothing per request (a mix's allocs/op counts its fixed sends too: 0 is 0 for both).
func BenchmarkSendMix(b *testing.B) {
	const chunk = 64
	cases := []struct{ name, bundled string }{
		{"fixed", ""}, // one eth_getBalance, the same bytes every time
		{"evm-mix", "evm-mix.toml"},
		{"solana-mix", "solana-mix.toml"},
	}
	for _, cc := range cases {
		b.Run(cc.name, func(b *testing.B) {
			send, fixed := mixSender(b, cc.bundled), mixSender(b, "")
			for range 1000 { // warm: dial, buffers, every request's shape
				send()
				fixed()
			}
			b.ReportAllocs()
			b.ResetTimer()
			if cc.bundled == "" {
				for b.Loop() {
					send()
				}
				return
			}
			var mixT, fixT time.Duration
			for i := 0; i < b.N; i += chunk {
				n := min(chunk, b.N-i)
				t0 := time.Now()
				for range n {
					send()
				}
				t1 := time.Now()
				for range n {
					fixed()
				}
				mixT, fixT = mixT+t1.Sub(t0), fixT+time.Since(t1)
			}
			b.ReportMetric(float64(mixT.Nanoseconds())/float64(b.N), "ns/op")
			b.ReportMetric(float64(mixT)/float64(fixT), "x-fixed")
		})
	}
}

// mixSender loads a bundled profile with the test harvest ("" for a fixed eth_getBalance) and
// returns one send of it: a request picked by weight, as a worker picks.
func mixSender(b *testing.B, bundled string) func() {
	var p *profiles.Profile
	var err error
	if bundled == "" {
		p, err = profiles.LoadBytes("fixed.toml", []byte(`url = "http://node.test:8545/"
[[request]]
method = "eth_getBalance"
params = ["0x71562b71999873db5b286df957af199ec94617f7", "latest"]
[[stage]]
rate = 1
`), "", nil)
	} else {
		p, err = profiles.LoadBundled(bundled, nil, profiles.DataDir(mixData))
	}
	if err != nil {
		b.Fatal(err)
	}
	cfg := p.Config
	cfg.URL = "http://node.test:8545/"
	c := engine.MemTargetForBench(b, cfg, func(ctx *fasthttp.RequestCtx) {
		ctx.SetContentType("application/json")
		ctx.SetBodyString(`{"jsonrpc":"2.0","id":1,"result":"0x1bc16d674ec80000"}`)
	})
	s := c.NewSender()
	batch := &engine.Batch{Samples: make([]engine.Sample, 1), RPCErrors: make([]engine.RPCError, 0, 8)}
	smp := &batch.Samples[0]
	ctx, start := context.Background(), time.Now()
	cum := make([]int, len(cfg.Requests))
	total := 0
	for i, r := range cfg.Requests {
		total += r.Weight
		cum[i] = total
	}
	rng := rand.New(rand.NewPCG(1, 2))
	return func() {
		i, _ := slices.BinarySearch(cum, rng.IntN(total)+1) // first with cum >= x+1: weight/total each
		batch.Reset()
		s.Send(ctx, i, smp, batch, 0, start)
		if smp.Err != engine.ErrNone || smp.Status != 200 {
			b.Fatalf("request %d: err %v status %d", i, smp.Err, smp.Status)
		}
	}
}
