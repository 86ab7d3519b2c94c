package main

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// comparedMix is a call and a batch whose ids are not in the calls' order, of answers that do
// not change with time, so two targets on one node answer them alike: over WebSocket the
// batch goes out with the connection's ids, and its answer must still compare as the HTTP
// target's does.
const comparedMix = `
[[request]]
name = "block"
method = "eth_getBlockByNumber"
params = ["0x10", false]
[[request]]
name = "batch"
body = '[{"jsonrpc":"2.0","id":2,"method":"eth_chainId"},{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe","0x1"]}]'
`

// TestE2ESideBySideTransports: two targets on one mock node that speak different transports,
// HTTP/1.1 beside WebSocket from [[target]] tables, and h2c beside WebSocket from the command
// line (--url NAME=URL, --h2c, --equality): each target's books equal the node's count for its
// transport, every answer compares alike (the ids the WebSocket target was sent never make a
// difference), and the headless lines and the report say so.
func TestE2ESideBySideTransports(t *testing.T) {
	t.Parallel() // counts only
	all := nodetest.Transports()
	ws := all[1]
	for _, tt := range []struct {
		http  nodetest.Transport
		flags bool // the targets from the command line
	}{{all[0], false}, {all[2], true}} {
		t.Run(tt.http.Name+"+ws", func(t *testing.T) {
			t.Parallel()
			node, url := startNode(t, tt.http.Node(mocknode.Config{}))
			head := "name = \"side\"\nconnections = 4\nstreams = 4\n"
			var args []string
			if tt.flags {
				args = []string{"--url", "a=" + tt.http.URL(url), "--url", "b=" + ws.URL(url), "--h2c", "--equality"}
				head += "url = \"ws://127.0.0.1:1\"\n" // replaced by the targets
			} else {
				head += "compare_answers = true\n[[target]]\nname = \"a\"\nurl = \"" + tt.http.URL(url) + "\"\n[[target]]\nname = \"b\"\nurl = \"" + ws.URL(url) + "\"\n"
			}
			p := writeFile(t, t.TempDir(), "side.toml", head+comparedMix+stage("200/s", "1s"))
			r := runCLI(t, nil, append([]string{p}, args...)...)
			mustRun(t, r, exitOK)
			if len(r.snap.Targets) != 2 || r.snap.Answers == nil {
				t.Fatalf("%d targets, answers %v\n%s", len(r.snap.Targets), r.snap.Answers, r.stdout)
			}
			st := node.Stats()
			for i, tr := range []nodetest.Transport{tt.http, ws} {
				tot := r.snap.Targets[i].Totals
				answered, _ := tr.Answered(st)
				if err := tot.CheckInvariant(); err != nil || tot.OK != 200 || tot.Completed != answered {
					t.Errorf("target %s over %s: ok %d completed %d (%v), the node answered %d", r.snap.Targets[i].Name, tr.Name, tot.OK, tot.Completed, err, answered)
				}
			}
			if c := r.snap.Answers.Totals; c.Compared != 200 || c.Match != 200 {
				t.Errorf("answers %+v, want all 200 alike", c)
			}
			for _, want := range []string{"answers: match 200, mismatch 0, error vs result 0, head skew 0", "Answers compared (a vs b)"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the output lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
}
