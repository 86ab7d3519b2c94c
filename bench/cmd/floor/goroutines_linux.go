package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fastjson"

	"github.com/rpcstress/rpcstress/engine"
)

// runGoroutines is rpcstress's design without rpcstress: a ticker goroutine hands each due
// send down a channel to one goroutine per connection (goroutines-closed: each goroutine sends
// back to back), which writes the request and reads its answer through rpcstress's own
// connection (engine.RawTCP: raw system calls that park on Go's netpoller only when the socket
// is not ready); the writer yields before its first read, as rpcstress's does. Set beside
// the one-goroutine loop, it says what that design costs, apart from the work per request.
func runGoroutines(ctx context.Context, o options, req []byte) (result, error) {
	var res result
	conns := make([]net.Conn, 0, o.conns)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range o.conns {
		c, err := net.Dial("tcp4", o.addr)
		if err != nil {
			return res, fmt.Errorf("dial %s: %w", o.addr, err)
		}
		conns = append(conns, c)
	}
	jobs := make(chan int64, o.conns*4)
	closed := o.mode == "goroutines-closed"
	start := time.Now()
	end := int64(o.dur)
	var mu sync.Mutex // guards res, latSum and the histogram: once per answer, as a batch would be
	var latSum int64
	if o.work {
		res.latency = hdr.New(1, 60_000_000, 3)
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		s := &sender{o: o, c: engine.RawTCP(c), req: req, buf: make([]byte, 64<<10)}
		s.br, s.src = newReader()
		wg.Go(func() {
			book := func(lat int64, ok bool) {
				mu.Lock()
				defer mu.Unlock()
				if lat < 0 {
					res.failed++
					return
				}
				res.answered++
				latSum += lat
				if ok && res.latency != nil {
					_ = res.latency.RecordValue(lat / 1000)
				}
			}
			if closed {
				for ctx.Err() == nil {
					intent := int64(time.Since(start))
					if intent >= end {
						return
					}
					book(s.send(intent, start))
				}
				return
			}
			for intent := range jobs {
				book(s.send(intent, start))
			}
		})
	}
	if !closed {
		res.sent, res.dropped = feed(ctx, o, jobs, start)
	}
	wg.Wait()
	if closed {
		res.sent = res.answered + res.failed
	}
	res.elapsed = time.Since(start)
	if res.answered > 0 {
		res.meanLatency = time.Duration(latSum / res.answered)
	}
	return res, nil
}

// feed hands each send due at an even rate down jobs, at each tick, until the run's end, and
// closes jobs; it returns the sends handed over and those dropped because jobs was full.
func feed(ctx context.Context, o options, jobs chan<- int64, start time.Time) (sent, dropped int64) {
	defer close(jobs)
	interval, end := int64(time.Second)/int64(o.rate), int64(o.dur)
	t := time.NewTicker(o.tick)
	defer t.Stop()
	for next := int64(0); next < end && ctx.Err() == nil; {
		<-t.C
		for now := int64(time.Since(start)); next <= now && next < end; next += interval {
			select {
			case jobs <- next:
				sent++
			default:
				dropped++ // every goroutine busy and the backlog full
			}
		}
	}
	return sent, dropped
}

// sender is one connection's goroutine state.
type sender struct {
	o      options
	c      net.Conn // rpcstress's own raw connection (engine.RawTCP)
	req    []byte
	buf    []byte
	resp   fasthttp.Response
	parser fastjson.Parser
	br     *bufio.Reader
	src    *bytes.Reader
}

// send sends one request intended at intent (ns since start) and waits for its answer; it
// returns the latency and whether the answer was a JSON-RPC result, or -1 when it failed.
func (s *sender) send(intent int64, start time.Time) (int64, bool) {
	_ = s.c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := s.c.Write(s.req); err != nil {
		return -1, false
	}
	runtime.Gosched()
	got := s.buf[:0]
	for !complete(got) {
		n, err := s.c.Read(s.buf[len(got):cap(s.buf)])
		if err != nil {
			return -1, false
		}
		got = s.buf[:len(got)+n]
	}
	lat := int64(time.Since(start)) - intent
	if !s.o.work {
		return lat, true
	}
	s.src.Reset(got)
	s.br.Reset(s.src)
	if s.resp.Read(s.br) != nil {
		return lat, false
	}
	v, err := s.parser.ParseBytes(s.resp.Body())
	return lat, err == nil && v.Get("result") != nil
}
