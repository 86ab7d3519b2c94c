package profiles

import (
	"strings"
	"testing"
)

// TestTargetsOfTwoTransports: targets side by side may speak different transports: an HTTP
// one (HTTP/2 in cleartext with h2c) beside a WebSocket one, with streams for both; a ws
// target's URL is its own transport, not a mistake.
func TestTargetsOfTwoTransports(t *testing.T) {
	src := "h2c = true\nstreams = 4\n" + strings.Replace(sideBase, "http://127.0.0.1:2", "ws://127.0.0.1:2", 1)
	c := mustLoad(t, src).Config
	if len(c.Targets) != 2 || c.Targets[1].URL != "ws://127.0.0.1:2" || !c.H2C || c.Streams != 4 {
		t.Errorf("targets %+v, h2c %v, streams %d", c.Targets, c.H2C, c.Streams)
	}
	// The WebSocket target first: streams still apply, HTTP/2 to the HTTP target.
	src = "h2c = true\nstreams = 4\n" + strings.Replace(sideBase, "http://127.0.0.1:1", "ws://127.0.0.1:1", 1)
	if c := mustLoad(t, src).Config; c.Streams != 4 || !c.H2C {
		t.Errorf("ws first: h2c %v, streams %d", c.H2C, c.Streams)
	}
	// From the command line too.
	if _, targets, err := URLFlags([]string{"a=http://a", "b=wss://b/ws"}); err != nil || len(targets) != 2 {
		t.Errorf("--url a=http://a --url b=wss://b/ws: %v, %v", targets, err)
	}
}

// TestTargetsTransportErrors: http2 and h2c are checked against the targets that speak HTTP,
// streams against all of them.
func TestTargetsTransportErrors(t *testing.T) {
	wsHTTPS := strings.Replace(strings.Replace(sideBase, "http://127.0.0.1:1", "ws://127.0.0.1:1", 1), "http://127.0.0.1:2", "https://127.0.0.1:2", 1)
	ws := strings.ReplaceAll(sideBase, "http://", "ws://")
	checkProblems(t, []problemCase{
		// h2c beside a WebSocket target: the https target is named, the ws one is not.
		{"h2c with ws and https targets", "h2c = true\n" + wsHTTPS, nil, 8, "target[2].url", "h2c = true: HTTP/2 in cleartext (h2c) needs an http:// URL, not https://"},
		// HTTP/2 with WebSocket targets only.
		{"h2c with ws targets", "h2c = true\n" + ws, nil, 5, "target[1].url", "h2c = true: a ws:// URL is WebSocket"},
		// Streams where every target speaks HTTP/1.1.
		{"streams over HTTP/1.1 targets", "streams = 4\n" + sideBase, nil, 1, "streams", "only HTTP/2 and WebSocket carry several requests"},
	})
	if p, err := LoadBytes("t.toml", []byte("h2c = true\n"+wsHTTPS), "testdata", mapEnv(nil)); err == nil || strings.Contains(err.Error(), "target[1]") {
		t.Errorf("h2c beside a ws target: %v, %v; want only the https target named", p, err)
	}
}
