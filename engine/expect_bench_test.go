package engine

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// expectBlock is a block as eth_getBlockByNumber answers it (hashes of transactions, not the
// transactions), about 1.5 KiB: what the bundled EVM mix's checks read most.
func expectBlock(id int) string {
	var txs []string
	for i := range 10 {
		txs = append(txs, `"0x`+strings.Repeat(strconv.Itoa(i%10), 64)+`"`)
	}
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"result":{"number":"0x1312d00","hash":"0x` + strings.Repeat("ab", 32) +
		`","parentHash":"0x` + strings.Repeat("cd", 32) + `","timestamp":"0x6553f100","miner":"0x` + strings.Repeat("0", 40) +
		`","gasLimit":"0x1c9c380","gasUsed":"0x0","baseFeePerGas":"0x3b9aca00","transactions":[` + strings.Join(txs, ",") + `],"uncles":[]}}`
}

// BenchmarkSendExpect measures a send with and without expect rules, against the same answer:
// the cost of checking results on the send path ("rules" is what a careful profile asks of a
// block: there, numbered in hex, with transactions). The bound is 5 % of a send.
func BenchmarkSendExpect(b *testing.B) {
	present := mustRule(b, ExpectPresent, "result", nil)
	rules := []*ExpectRule{present, mustRule(b, ExpectMatches, "result.number", "^0x[0-9a-f]+$"), mustRule(b, ExpectNonEmpty, "result.transactions", nil)}
	var batchAnswer []string
	var batchBody []string
	for i := 1; i <= 10; i++ {
		batchAnswer = append(batchAnswer, expectBlock(i))
		batchBody = append(batchBody, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"eth_getBlockByNumber","params":["latest",false]}`)
	}
	shapes := []struct {
		name         string
		body, answer string
	}{
		{"block", `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}`, expectBlock(1)},
		{"batch10", "[" + strings.Join(batchBody, ",") + "]", "[" + strings.Join(batchAnswer, ",") + "]"},
	}
	checks := []struct {
		name  string
		rules []*ExpectRule
	}{{"none", nil}, {"result", rules[:1]}, {"rules", rules}}
	for _, sh := range shapes {
		for _, ck := range checks {
			b.Run(sh.name+"/"+ck.name, func(b *testing.B) {
				calls := ParseRPCCalls([]byte(sh.body))
				if ck.rules != nil {
					if err := calls.SetSpecs([]CallSpec{{Expect: &Expect{Rules: ck.rules}, Cost: 16}}); err != nil {
						b.Fatal(err)
					}
				}
				cfg := clientConfig("http://node.test:8899/")
				cfg.Requests = []Request{{Name: "r", Body: []byte(sh.body), RPC: calls, Weight: 1, Items: calls.Calls()}}
				c := memTarget(b, cfg, NewCounters(1), func(ctx *fasthttp.RequestCtx) {
					ctx.SetContentType("application/json")
					ctx.SetBodyString(sh.answer)
				})
				s := c.NewSender()
				batch := &Batch{Samples: make([]Sample, 1), RPCErrors: make([]RPCError, 0, 8), Invalid: make([]InvalidCall, 0, 8)}
				ctx, start, smp := context.Background(), time.Now(), &batch.Samples[0]
				s.Send(ctx, 0, smp, batch, 0, start)
				if smp.Outcome != OutcomeOK || int(smp.CallsOK) != calls.Calls() {
					b.Fatalf("outcome %v, %d calls ok", smp.Outcome, smp.CallsOK)
				}
				b.ReportAllocs()
				b.SetBytes(int64(len(sh.answer)))
				for b.Loop() {
					batch.Reset()
					s.Send(ctx, 0, smp, batch, 0, start)
				}
			})
		}
	}
}

// BenchmarkClassifyExpect is the classification of the same answers alone, where the checks'
// share shows undiluted by the round trip: the difference to "none" is what checking adds to
// a send.
func BenchmarkClassifyExpect(b *testing.B) {
	rules := []*ExpectRule{mustRule(b, ExpectPresent, "result", nil), mustRule(b, ExpectMatches, "result.number", "^0x[0-9a-f]+$"),
		mustRule(b, ExpectNonEmpty, "result.transactions", nil)}
	var batchBody, batchAnswer []string
	for i := 1; i <= 10; i++ {
		batchBody = append(batchBody, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"eth_getBlockByNumber","params":["latest",false]}`)
		batchAnswer = append(batchAnswer, expectBlock(i))
	}
	shapes := []struct{ name, body, answer string }{
		{"block", `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}`, expectBlock(1)},
		{"batch10", "[" + strings.Join(batchBody, ",") + "]", "[" + strings.Join(batchAnswer, ",") + "]"},
	}
	for _, sh := range shapes {
		for _, ck := range []struct {
			name  string
			rules []*ExpectRule
		}{{"none", nil}, {"result", rules[:1]}, {"rules", rules}} {
			b.Run(sh.name+"/"+ck.name, func(b *testing.B) {
				calls := ParseRPCCalls([]byte(sh.body))
				if ck.rules != nil {
					if err := calls.SetSpecs([]CallSpec{{Expect: &Expect{Rules: ck.rules}}}); err != nil {
						b.Fatal(err)
					}
				}
				c := NewClassifier(DefaultLimits())
				bt := &Batch{}
				var s Sample
				answer := []byte(sh.answer)
				c.Classify(&s, 200, answer, calls, 0, bt)
				b.ReportAllocs()
				b.SetBytes(int64(len(answer)))
				for b.Loop() {
					bt.Reset()
					c.memo.valid = false // the checks at work, not the memo's recall
					c.Classify(&s, 200, answer, calls, 0, bt)
				}
			})
		}
	}
}
