package mocknode

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkHandler measures the fasthttp handler alone (no network), per kind of request.
// The common paths must not allocate.
func BenchmarkHandler(b *testing.B) {
	batch := `[` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` +
		getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `,` + getSlot + `]`
	cases := []struct {
		name string
		cfg  Config
		body string
	}{
		{"getBalance", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["` + solAddr + `"]}`},
		{"getBalance_invalid", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["x"]}`},
		{"eth_getBlockByNumber", Config{}, `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}`},
		{"batch10", Config{}, batch},
		{"getBlocks100", Config{}, `{"jsonrpc":"2.0","id":1,"method":"getBlocks","params":[1000,1099]}`},
		{"parse_error", Config{}, `{"jsonrpc":`},
		{"limited_429", Config{Rate: 1, NoDelay: true}, getSlot},
		{"limiter_pass", Config{Rate: 1e7, Burst: 1e9, NoDelay: true}, getSlot},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			n := mustNode(b, bc.cfg)
			var req fasthttp.Request
			req.Header.SetMethod(fasthttp.MethodPost)
			req.SetRequestURI("/")
			req.SetBodyString(bc.body)
			var ctx fasthttp.RequestCtx
			ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
			n.handle(&ctx) // warm the pools
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.body)))
			b.ResetTimer()
			for b.Loop() {
				ctx.Response.Reset()
				n.handle(&ctx)
			}
		})
	}
}

// BenchmarkHandlerParallel is the getBalance path from many goroutines, as fasthttp runs it.
func BenchmarkHandlerParallel(b *testing.B) {
	n := mustNode(b, Config{})
	body := `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["` + solAddr + `"]}`
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var req fasthttp.Request
		req.Header.SetMethod(fasthttp.MethodPost)
		req.SetRequestURI("/")
		req.SetBodyString(body)
		var ctx fasthttp.RequestCtx
		ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
		for pb.Next() {
			ctx.Response.Reset()
			n.handle(&ctx)
		}
	})
}
