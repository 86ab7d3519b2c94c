package engine

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// wsBenchBody is a typical call, and wsBenchBatch a batch of three.
const (
	wsBenchBody  = `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`
	wsBenchBatch = `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"},{"jsonrpc":"2.0","id":3,"method":"eth_chainId"}]`
)

// wsExchangeFor is an exchange of a WebSocket transport for body, not connected.
func wsExchangeFor(tb testing.TB, body string) *wsExchange {
	tb.Helper()
	cfg := clientConfig("ws://node.test:8546/")
	cfg.Requests = cfg.Requests[:1]
	cfg.Requests[0].Body = []byte(body)
	cfg.Requests[0].RPC = ParseRPCCalls(cfg.Requests[0].Body)
	c, err := newClient(cfg, NewCounters(1), nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return c.tr.newExchange().(*wsExchange)
}

// TestWSSendPathAllocates: giving a call its ids, the calls to match its answer and its masked
// frame allocates nothing, for a fixed body and for a rendering cut per send.
func TestWSSendPathAllocates(t *testing.T) {
	for _, body := range []string{wsBenchBody, wsBenchBatch} {
		e := wsExchangeFor(t, body)
		send := func() { e.fr.frame(0x1, e.out[:len(e.out):len(e.out)]) }
		e.load(0, nil)
		if n := testing.AllocsPerRun(200, func() { e.load(0, nil); send() }); n != 0 {
			t.Errorf("fixed %.30s: %.1f allocations per send", body, n)
		}
		rendered := []byte(body)
		if n := testing.AllocsPerRun(200, func() { e.loadStreamed(0, rendered); send() }); n != 0 {
			t.Errorf("rendered %.30s: %.1f allocations per send", body, n)
		}
	}
}

// BenchmarkTransports sends the same call over HTTP/1.1 and over WebSocket to the same mock node
// on loopback, from 8 senders at once (over WebSocket: 2 connections of 4 streams; over
// HTTP/1.1: 8 connections). cpu-ns/op is the process's CPU time per call, the node's included
// (it runs in this process), so the two are compared as a whole; allocs/op include the node's.
func BenchmarkTransports(b *testing.B) {
	_, url := nodetest.Start(b, mocknode.Config{})
	for _, tc := range []struct{ name, url string }{
		{"http1", url},
		{"ws", "ws" + strings.TrimPrefix(url, "http")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := clientConfig(tc.url)
			cfg.Requests = cfg.Requests[:1]
			cfg.Connections, cfg.Streams = 8, 1
			if strings.HasPrefix(tc.url, "ws") {
				cfg.Connections, cfg.Streams = 2, 4
			}
			cfg.Requests[0].Body = []byte(wsBenchBody)
			cfg.Requests[0].RPC = ParseRPCCalls(cfg.Requests[0].Body)
			c, err := NewClient(cfg, NewCounters(1))
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			senders := make(chan *Sender, 8)
			for range 8 {
				senders <- c.NewSender()
			}
			b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
			cpu0, _ := processCPU()
			b.ReportAllocs()
			b.ResetTimer()
			var mu sync.Mutex
			var failed int
			b.RunParallel(func(pb *testing.PB) {
				s := <-senders
				batch := &Batch{Samples: make([]Sample, 1), RPCErrors: make([]RPCError, 0, 8)}
				smp := &batch.Samples[0] // Reset keeps the storage
				start := time.Now()
				for pb.Next() {
					batch.Reset()
					s.Send(context.Background(), 0, smp, batch, 0, start)
					if smp.Outcome != OutcomeOK {
						mu.Lock()
						failed++
						mu.Unlock()
					}
				}
			})
			b.StopTimer()
			cpu1, _ := processCPU()
			b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			if failed > 0 {
				b.Fatalf("%d calls not ok", failed)
			}
		})
	}
}
