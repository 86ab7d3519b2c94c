package engine

import (
	"runtime"
	"strconv"
	"testing"
	"time"
)

// shapedClient is a Client for a mix of n requests of n shapes: a GET of its own path with an
// API key header each, as a target file replaying a REST API makes.
func shapedClient(t *testing.T, n int) *Client {
	t.Helper()
	cfg := manyRequests(n)
	for i := range cfg.Requests {
		cfg.Requests[i].Method = "GET"
		cfg.Requests[i].Path = "/v1/items/" + strconv.Itoa(i)
		cfg.Requests[i].Headers = []Header{{Name: "X-Api-Key", Value: "k" + strconv.Itoa(i)}}
	}
	cfg.URL, cfg.Timeout = "http://127.0.0.1:1/", time.Second
	c, err := NewClient(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSenderShapesBounded: a worker keeps a bounded number of requests prepared, whatever the
// number of shapes in the mix: each one kept per shape (about 1.2 KiB) cost connections ×
// shapes, 73 MiB for 64 connections and a target file of 1,000 paths. A shape prepared again
// after others took its place is sent as it should be.
func TestSenderShapesBounded(t *testing.T) {
	const shapes, senders, perSenderMax = 300, 16, 64 << 10
	c := shapedClient(t, shapes)
	before := heapAlloc()
	kept := make([]*Sender, senders)
	for i := range kept {
		s := c.NewSender()
		for k := range shapes {
			s.ex.(*http1Exchange).request(k)
		}
		kept[i] = s
	}
	if per := int64(heapAlloc()-before) / senders; per > perSenderMax {
		t.Errorf("a worker that sent %d shapes keeps %d bytes, want at most %d", shapes, per, perSenderMax)
	}
	s := kept[0]
	for _, k := range []int{0, 7, shapes - 1, 7, 3} {
		r := s.ex.(*http1Exchange).request(k)
		if got, want := string(r.Header.Method()), "GET"; got != want {
			t.Errorf("request %d: method %s, want %s", k, got, want)
		}
		if got, want := string(r.URI().Path()), c.cfg.Requests[k].Path; got != want {
			t.Errorf("request %d: path %s, want %s", k, got, want)
		}
		if got, want := string(r.Header.Peek("X-Api-Key")), c.cfg.Requests[k].Headers[0].Value; got != want {
			t.Errorf("request %d: X-Api-Key %q, want %q (one header, the shape's)", k, got, want)
		}
		if n := len(r.Header.PeekAll("X-Api-Key")); n != 1 {
			t.Errorf("request %d: %d X-Api-Key headers, want 1", k, n)
		}
	}
	runtime.KeepAlive(kept)
}
