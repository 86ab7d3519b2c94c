package profiles

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDescribePlanAlignsWideNames: the plan's columns line up in terminal cells, so a stage
// named in Chinese or Japanese (two cells a character) does not push its row's numbers out of
// their columns; every line of the table is as wide as its head.
func TestDescribePlanAlignsWideNames(t *testing.T) {
	p := mustLoadIn(t, `url = "http://127.0.0.1:8899"
[[request]]
method = "getSlot"
[[stage]]
name = "暖机"
rate = "240/m"
duration = "30s"
[[stage]]
name = "peak"
rate = "8/s"
duration = "30s"
`, "", nil)
	_, plan, _ := strings.Cut(described(p), "\nplan")
	lines := strings.Split(strings.TrimSpace(plan), "\n")[1:] // the head, the stages, the total
	if len(lines) != 4 || !strings.Contains(lines[1], "暖机") {
		t.Fatalf("want a head, two stages and a total:\n%s", plan)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != ansi.StringWidth(lines[0]) {
			t.Errorf("%q is %d cells wide, the head %d:\n%s", l, ansi.StringWidth(l), ansi.StringWidth(lines[0]), plan)
		}
	}
}

// TestDescribeAsks: validate shows under each request the rules its answers must pass and
// what a send costs, within 80 columns; a profile without costs says nothing about cost. And
// it names the transport: a ws:// target is WebSocket, not POST, with what connections and
// streams make of the calls in flight, as for HTTP/2.
func TestDescribeAsks(t *testing.T) {
	ws := func(url, extra string) string {
		return "url = \"" + url + "\"\nconnections = 4\n" + extra + "\n[[request]]\nmethod = \"m\"\n[[stage]]\nrate = 1\n"
	}
	tests := []struct {
		src  string
		want []string
		not  []string
	}{
		// Rules and costs, one of them long enough to wrap.
		{expectProfile, []string{`    expect result.number matches "^0x"; result nonempty`, "    cost   16 units a send",
			"    cost   150 units a send", `    expect result equals "0x0"`}, nil},
		// Neither.
		{"url = \"http://h\"\n[[request]]\nmethod = \"a\"\n[[stage]]\nrate = 1\n", nil, []string{"expect", "cost"}},
		// WebSocket: streams multiply the calls in flight on each connection …
		{ws("ws://127.0.0.1:8546", "streams = 8"), []string{"target        WebSocket ws://127.0.0.1:8546",
			"websocket     JSON-RPC over WebSocket: 4 connections × 8 calls, up to 32"}, []string{"POST"}},
		// … one call a connection without them.
		{ws("wss://node.example/ws", ""), []string{"target        WebSocket wss://node.example/ws",
			"websocket     JSON-RPC over WebSocket: 4 connections × 1 call, up to 4 requests"}, []string{"POST"}},
		// HTTP/1.1 keeps its method and has no such row.
		{ws("http://127.0.0.1:8545", ""), []string{"target        POST http://127.0.0.1:8545"}, []string{"websocket"}},
	}
	for _, tt := range tests {
		out := described(mustLoad(t, tt.src))
		checkLines(t, out, tt.want)
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("%q in:\n%s", n, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("%q is wider than 80 columns", l)
			}
		}
	}
}
