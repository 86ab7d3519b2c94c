// Command target is the JSON-RPC node the benchmark suite loads: a fasthttp server that answers
// every POST with one pre-rendered getBalance result, so it costs as little CPU as a server can and
// the tester, not the target, is what the suite measures.
//
// It counts what it answers in atomics and tells them on GET /stats, so every benchmark row can
// show the server's own count next to the tool's. Three flags shape it for the scenarios:
//
//	--delay 2ms                      answer each request after a fixed delay (latency fidelity)
//	--stall-every 2s --stall-for 200ms  hold every answer during the last 200 ms of each 2 s,
//	                                 counted from the first request (coordinated omission)
//	--rate 1000 --burst 10           token bucket; requests over it get 429 at once (limiter fairness)
//
// It listens on 127.0.0.1 only. It is not the mock node (examples/mocknode), which parses every
// request and models nginx: bench/README.md says why the suite needs a target of its own.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

// answer is the one getBalance result the target sends, rendered once.
var answer = []byte(`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":1}`)

var limited = []byte(`{"jsonrpc":"2.0","error":{"code":429,"message":"Too many requests"},"id":1}`)

// counters are the target's own books: every POST is exactly one of ok or limited.
type counters struct {
	ok      atomic.Int64
	limited atomic.Int64
}

// stall holds answers during the last `span` of every `every`, counted from the first request,
// so a run that starts at any moment meets whole stalls at the same places.
type stall struct {
	every, span time.Duration
	once        sync.Once
	origin      atomic.Int64 // unix nanoseconds of the first request
}

// wait blocks until the current stall, if any, ends.
func (s *stall) wait(now time.Time) {
	s.once.Do(func() { s.origin.Store(now.UnixNano()) })
	phase := time.Duration(now.UnixNano()-s.origin.Load()) % s.every
	if start := s.every - s.span; phase >= start {
		time.Sleep(s.every - phase)
	}
}

// bucket is a token bucket: rate tokens a second, at most burst kept, starting full.
type bucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func (b *bucket) take(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last.IsZero() {
		b.tokens = b.burst
	} else {
		b.tokens += now.Sub(b.last).Seconds() * b.rate
		if b.tokens > b.burst {
			b.tokens = b.burst
		}
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

func main() {
	listen := flag.String("listen", "127.0.0.1:8899", "address to listen on (loopback only)")
	delay := flag.Duration("delay", 0, "fixed delay before every answer")
	stallEvery := flag.Duration("stall-every", 0, "period of the stalls (with --stall-for)")
	stallFor := flag.Duration("stall-for", 0, "how long each stall holds the answers")
	rate := flag.Float64("rate", 0, "token bucket rate per second; 0 = no limit")
	burst := flag.Float64("burst", 1, "token bucket size")
	flag.Parse()
	if err := run(*listen, *delay, *stallEvery, *stallFor, *rate, *burst); err != nil {
		fmt.Fprintln(os.Stderr, "target:", err)
		os.Exit(1)
	}
}

func run(listen string, delay, stallEvery, stallFor time.Duration, rate, burst float64) error {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", listen, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("--listen %q: the target listens on loopback only (127.0.0.1)", listen)
	}
	if (stallEvery > 0) != (stallFor > 0) || stallFor >= stallEvery && stallEvery > 0 {
		return errors.New("--stall-every and --stall-for go together, with --stall-for shorter")
	}
	var c counters
	var st *stall
	if stallEvery > 0 {
		st = &stall{every: stallEvery, span: stallFor}
	}
	var tb *bucket
	if rate > 0 {
		tb = &bucket{rate: rate, burst: burst}
	}
	handler := func(ctx *fasthttp.RequestCtx) {
		if !ctx.IsPost() {
			if string(ctx.Path()) == "/stats" {
				ok, lim := c.ok.Load(), c.limited.Load()
				ctx.SetContentType("application/json")
				ctx.SetBodyString(`{"requests":` + strconv.FormatInt(ok+lim, 10) +
					`,"status":{"200":` + strconv.FormatInt(ok, 10) + `,"429":` + strconv.FormatInt(lim, 10) + `}}`)
				return
			}
			ctx.SetStatusCode(fasthttp.StatusNotFound)
			return
		}
		if st != nil || tb != nil {
			now := time.Now()
			if tb != nil && !tb.take(now) {
				c.limited.Add(1)
				ctx.SetStatusCode(fasthttp.StatusTooManyRequests)
				ctx.SetContentType("application/json")
				ctx.SetBody(limited)
				return
			}
			if st != nil {
				st.wait(now)
			}
		}
		if delay > 0 {
			time.Sleep(delay)
		}
		c.ok.Add(1)
		ctx.SetContentType("application/json")
		ctx.SetBody(answer)
	}
	srv := &fasthttp.Server{
		Handler:               handler,
		Name:                  "bench-target",
		NoDefaultServerHeader: true,
		NoDefaultDate:         true,
		Concurrency:           1 << 16,
		ReadTimeout:           30 * time.Second,
		IdleTimeout:           30 * time.Second,
	}
	ln, err := net.Listen("tcp4", listen)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Shutdown()
	}()
	fmt.Fprintf(os.Stderr, "target: listening on %s\n", ln.Addr())
	return srv.Serve(ln)
}
