// Package nodetest starts the mock node (examples/mocknode) for a test: the well-behaved target
// of the engine's and the end-to-end tests.
package nodetest

import (
	"context"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Start starts a node with cfg on a free loopback port for the rest of the test and returns it
// with its URL.
func Start(t testing.TB, cfg mocknode.Config) (*mocknode.Node, string) {
	t.Helper()
	n, addr, err := mocknode.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return n, "http://" + addr + "/"
}

// Transport is one way a tester reaches the mock node, and the node's own count of what it
// answered over it: tests run the same plan over each transport and hold the tester's books
// to the node's.
type Transport struct {
	Name string
	// URL is the node's URL over this transport, from its HTTP URL (what Start returns).
	URL func(httpURL string) string
	// H2C: the tester speaks HTTP/2 in cleartext (h2c = true), which the node serves beside
	// HTTP/1.1 and WebSocket with mocknode.Config.H2C (see Node).
	H2C bool
	// Answered is the node's count of the answers it wrote over this transport, and of those
	// its limiter refused (a 429 over HTTP, a -32005 inside a WebSocket answer).
	Answered func(st mocknode.Stats) (answers, limited int64)
}

// Transports are the transports the mock node speaks on one port: HTTP/1.1, JSON-RPC over
// WebSocket, and HTTP/2 in cleartext.
func Transports() []Transport {
	return []Transport{
		{Name: "http", URL: sameURL, Answered: httpAnswered},
		{Name: "ws", URL: WSURL, Answered: func(st mocknode.Stats) (int64, int64) { return st.WS.Messages, st.WS.Limited }},
		{Name: "h2c", URL: sameURL, H2C: true, Answered: httpAnswered},
	}
}

// Node is cfg with what the node needs to serve the transport.
func (tr Transport) Node(cfg mocknode.Config) mocknode.Config {
	cfg.H2C = cfg.H2C || tr.H2C
	return cfg
}

// Profile is the profile's keys that choose the transport, one a line ("" for none).
func (tr Transport) Profile() string {
	if tr.H2C {
		return "h2c = true\n"
	}
	return ""
}

func sameURL(u string) string { return u }

// WSURL is the mock node's WebSocket URL beside its HTTP URL (the same port).
func WSURL(httpURL string) string { return "ws" + strings.TrimPrefix(httpURL, "http") }

// httpAnswered is the node's HTTP answers to JSON-RPC requests: every HTTP request it answered
// but the WebSocket upgrades (which it counts as requests too).
func httpAnswered(st mocknode.Stats) (int64, int64) {
	return st.Requests - st.WS.Upgrades - st.WS.Refused, st.Status["429"]
}
