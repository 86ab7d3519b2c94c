package profiles

import (
	"bytes"
	"strings"
	"testing"
)

// TestDescribeWebSocket: validate of a ws:// profile names the transport, not an HTTP method,
// and says what connections and streams make of the calls in flight, as it does for HTTP/2.
func TestDescribeWebSocket(t *testing.T) {
	tests := []struct {
		name, url, extra string
		want             []string
		not              string
	}{
		// Streams multiply the calls in flight on each connection.
		{"ws with streams", "ws://127.0.0.1:8546", "streams = 8", []string{"target        WebSocket ws://127.0.0.1:8546",
			"websocket     JSON-RPC over WebSocket: 4 connections × 8 calls, up to 32", "requests in flight"}, "POST"},
		// One call a connection without streams.
		{"wss without streams", "wss://node.example/ws", "", []string{"target        WebSocket wss://node.example/ws",
			"4 connections × 1 call, up to 4 requests in flight"}, "POST"},
		// HTTP/1.1 keeps its method and has no such row.
		{"http", "http://127.0.0.1:8545", "", []string{"target        POST http://127.0.0.1:8545"}, "websocket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "url = \"" + tt.url + "\"\nconnections = 4\n" + tt.extra +
				"\n[[request]]\nmethod = \"eth_blockNumber\"\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"
			var out bytes.Buffer
			mustLoad(t, src).Describe(&out)
			flat := strings.Join(strings.Fields(out.String()), " ")
			for _, w := range tt.want {
				if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("no %q in:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), tt.not) {
				t.Errorf("%q in:\n%s", tt.not, out.String())
			}
		})
	}
}
