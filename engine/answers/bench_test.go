package answers

import (
	"testing"
)

// benchmarkAdd measures comparing one request's answers from two targets: two Adds, as the
// engine makes them. The answers match (the common case: no example is built), and the
// request name has its examples kept already, so no body is copied: the steady state of a
// long run.
func benchmarkAdd(b *testing.B, request string, a0, a1 []byte) {
	c, err := New(Options{Targets: []string{"a", "b"}, NumbersByValue: true})
	if err != nil {
		b.Fatal(err)
	}
	c.methods[request] = &method{kept: [nKinds]int{kMismatch: 5, kErrorVsResult: 5, kHeadSkew: 5}}
	sent := []byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":[]}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(a0) + len(a1)))
	for i := 0; b.Loop(); i++ {
		seq := uint64(i)
		c.Add(seq, request, sent, Answer{Target: 0, Body: a0})
		c.Add(seq, request, sent, Answer{Target: 1, Body: a1})
	}
	if r := c.Live(); r.Totals.Match != r.Totals.Compared {
		b.Fatalf("counts %+v: the answers were to match", r.Totals)
	}
}

// BenchmarkAddBlock: a typical eth_getBlockByNumber answer (about 1.6 KB), from two targets:
// alike to the byte (two nodes of one make: only the first is parsed), and the same block
// written with its keys in another order (both parsed, the second's members sorted).
func BenchmarkAddBlock(b *testing.B) {
	sorted, reversed := blockWith(1, 1000, 1700000000, false), blockWith(1, 1000, 1700000000, true)
	b.Run("alike", func(b *testing.B) { benchmarkAdd(b, "eth_getBlockByNumber", sorted, sorted) })
	b.Run("reordered", func(b *testing.B) { benchmarkAdd(b, "eth_getBlockByNumber", sorted, reversed) })
}

// BenchmarkAddBalance: a small eth_getBalance answer, from two targets: alike to the byte, and
// written in another order.
func BenchmarkAddBalance(b *testing.B) {
	one := balanceAnswer(1, 1e18)
	b.Run("alike", func(b *testing.B) { benchmarkAdd(b, "eth_getBalance", one, one) })
	b.Run("reordered", func(b *testing.B) {
		benchmarkAdd(b, "eth_getBalance", one, []byte(`{"id":1,"result":"0xde0b6b3a7640000","jsonrpc":"2.0"}`))
	})
}
