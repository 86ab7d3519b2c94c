package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/valyala/fasthttp"
)

// BenchmarkSendTemplate compares the per-request path with a fixed body and with bodies
// rendered from templates compiled by the profile loader (the same call with a random
// account from a file, a heavier mix of every function, and a block among the chain's last
// 128 as EVM writes it), and a vegeta target file whose
// bodies are sent in turn. Like BenchmarkSend, the in-memory server's own work is included.
// Every variant must allocate nothing per request.
func BenchmarkSendTemplate(b *testing.B) {
	const url = "url = \"http://node.test:8899/\"\n"
	cases := []struct {
		name, profile string
	}{
		{"fixed", url + `[[request]]
method = "getBalance"
params = ["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ", {commitment = "finalized"}]`},
		{"template", url + `[[request]]
method = "getBalance"
params = ["{{line \"accounts.txt\"}}", {commitment = "{{pick \"finalized\" \"confirmed\"}}"}]`},
		{"template-heavy", url + `[[request]]
method = "eth_getBalance"
params = ["0x{{randHex 40}}", "{{randInt 1 20000000}}", {id = "{{seq}}", key = "{{randBase58 44}}", acct = "{{lineSeq \"accounts.txt\"}}", pad = "{{payload 200}}"}]`},
		{"template-head", url + `chain = "evm"
[[request]]
method = "eth_getBlockByNumber"
params = ["{{hex recent 128}}", false]`},
		{"batch-10-template", url + `[[request]]
method = "getBalance"
params = ["{{line \"accounts.txt\"}}"]
batch = 10`},
		{"targets", `targets = "targets/rpc.http"`},
	}
	for _, cc := range cases {
		b.Run(cc.name, func(b *testing.B) {
			p, err := profiles.LoadBytes(cc.name+".toml", []byte(cc.profile+"\n[[stage]]\nrate = 1\n"), "../profiles/testdata", nil)
			if err != nil {
				b.Fatal(err)
			}
			cfg := p.Config
			cfg.URL = "http://node.test:8899/" // the targets name 127.0.0.1; the transport is in memory anyway
			c := engine.MemTargetForBench(b, cfg, func(ctx *fasthttp.RequestCtx) {
				ctx.SetContentType("application/json")
				ctx.SetBodyString(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1234},"value":99999}}`)
			})
			s := c.NewSender()
			batch := &engine.Batch{Samples: make([]engine.Sample, 1), RPCErrors: make([]engine.RPCError, 0, 8)}
			ctx := context.Background()
			start := time.Now()
			smp := &batch.Samples[0]
			n := len(cfg.Requests)
			for i := range 4 * n { // warm: dial, buffers, every request's shape
				s.Send(ctx, i%n, smp, batch, 0, start)
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				batch.Reset()
				s.Send(ctx, i%n, smp, batch, 0, start)
				i++
			}
			if smp.Err != engine.ErrNone || smp.Status != 200 {
				b.Fatalf("err %v status %d", smp.Err, smp.Status)
			}
		})
	}
}
