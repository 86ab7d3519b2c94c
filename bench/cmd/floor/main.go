//go:build linux

// Command floor measures the least CPU a Go tester can spend per request at an even send
// grain, so that bench/README can say how close rpcstress is to what its design allows
// (issue 20). It is not a load tester: it sends one fixed JSON-RPC POST to bench/target over
// keep-alive connections, at an even rate, from one goroutine with non-blocking sockets that
// Go's netpoller never sees, and counts nothing but what it must.
//
// Two ways to read the answers:
//
//	eager  an epoll of its own holds the sockets and a timerfd ticking at the grain; every
//	       answer is read as it arrives (wrk's design), so the tester wakes for answers too.
//	lazy   the tester sleeps from tick to tick and reads, at each tick, whatever answers came
//	       in since; their arrival time is the kernel's (SO_TIMESTAMPNS), so latency stays
//	       exact without waking for them.
//	closed every connection sends its next request the moment an answer is in (eager's loop,
//	       wrk's closed loop); -rate is not used.
//	goroutines  rpcstress's design without rpcstress: a goroutine per connection fed through
//	       a channel, on sockets of Go's netpoller (goroutines_linux.go); goroutines-closed
//	       is its closed loop.
//
// With -work, each answer is also parsed as rpcstress parses it (fasthttp's response, the
// JSON-RPC body with fastjson) and its latency recorded in an HDR histogram: the per-request
// work that makes rpcstress's figures honest, without its goroutines, channels and batches.
//
// Like rpcstress, the loops send nothing before its tick, and a send that finds every
// connection busy waits for the first to be free (counted "held"), keeping its intended time.
//
// bench/floor.sh runs it inside bench/run.sh's scenarios 1 and 2 (tools floor-loop,
// floor-lazy, floor-goroutines, floor-bare): the target on one core, floor on another.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func main() {
	var o options
	flag.StringVar(&o.mode, "mode", "eager", "eager: read answers as they arrive; lazy: read them at the next tick; closed: each answer sends the next (-rate unused); goroutines: one per connection, fed by a channel; goroutines-closed: each sends back to back")
	flag.IntVar(&o.rate, "rate", 5000, "requests per second, evenly spread")
	flag.DurationVar(&o.dur, "d", 10*time.Second, "how long to send")
	flag.IntVar(&o.conns, "c", 50, "connections")
	flag.StringVar(&o.addr, "addr", "127.0.0.1:18899", "bench/target's address (IPv4 host:port)")
	flag.DurationVar(&o.tick, "tick", time.Millisecond, "the send grain")
	flag.BoolVar(&o.work, "work", false, "parse every answer and record its latency as rpcstress does")
	flag.StringVar(&o.body, "body", "bench/body.json", "the request body")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Println(res)
}

type options struct {
	mode, addr, body string
	rate, conns      int
	dur, tick        time.Duration
	work             bool
}

// result is what a run measured: enough to check it did what was asked.
type result struct {
	sent, answered, failed int64
	held                   int64          // times a due send waited for a free connection (the loops)
	dropped                int64          // due sends never made: every goroutine busy and the backlog full
	latency                *hdr.Histogram // µs, only with -work
	meanLatency            time.Duration
	elapsed                time.Duration // from the first send to the last answer
}

func (r result) String() string {
	s := fmt.Sprintf("sent %d answered %d failed %d held %d dropped %d in %.3f s mean latency %.3f ms",
		r.sent, r.answered, r.failed, r.held, r.dropped, r.elapsed.Seconds(), float64(r.meanLatency)/1e6)
	if r.latency != nil {
		s += fmt.Sprintf(" p50 %.3f ms p99 %.3f ms (HDR)", float64(r.latency.ValueAtQuantile(50))/1e3,
			float64(r.latency.ValueAtQuantile(99))/1e3)
	}
	return s
}

func run(ctx context.Context, o options) (result, error) {
	if o.mode != "eager" && o.mode != "lazy" && o.mode != "closed" && o.mode != "goroutines" &&
		o.mode != "goroutines-closed" {
		return result{}, fmt.Errorf("-mode %q: want eager, lazy, closed, goroutines or goroutines-closed", o.mode)
	}
	if o.rate <= 0 || o.conns <= 0 || o.tick <= 0 || o.dur <= 0 {
		return result{}, errors.New("-rate, -c, -tick and -d must be above zero")
	}
	body, err := os.ReadFile(o.body)
	if err != nil {
		return result{}, fmt.Errorf("the request body: %w", err)
	}
	req := []byte("POST / HTTP/1.1\r\nHost: " + o.addr + "\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + string(body))
	if o.mode == "goroutines" || o.mode == "goroutines-closed" {
		return runGoroutines(ctx, o, req)
	}
	l, err := newLoop(o, req)
	if err != nil {
		return result{}, err
	}
	defer l.close()
	return l.run(ctx)
}

// complete reports whether b holds a whole answer of bench/target: headers and a body of
// their Content-Length (the target never chunks).
func complete(b []byte) bool {
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if end < 0 {
		return false
	}
	i := bytes.Index(b[:end], []byte("Content-Length: "))
	if i < 0 {
		return true
	}
	n := 0
	for _, c := range b[i+len("Content-Length: ") : end] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return len(b) >= end+4+n
}

// newReader is a bufio.Reader over an answer's bytes, for fasthttp's parser.
func newReader() (*bufio.Reader, *bytes.Reader) {
	r := bytes.NewReader(nil)
	return bufio.NewReaderSize(r, 4096), r
}
