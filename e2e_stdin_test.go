package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestE2ETargetsStdin: `--targets -` streams targets from standard input while the run goes
// (a pipe that stays open until the writer is done, so nothing is read whole first): every
// target is sent once, @body files are found from the working directory, requests are named
// by method as for a file, and the input's end ends the run ("targets ended").
func TestE2ETargetsStdin(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	dir := t.TempDir()
	writeFile(t, dir, "bodies/slot.json", `{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)
	t.Chdir(dir) // @bodies/slot.json is relative to the working directory

	var targets []string
	for i := range 90 {
		switch i % 3 {
		case 0: // a body of its own per target: still one request, getBalance
			targets = append(targets, fmt.Sprintf("POST %s\nContent-Type: application/json\n@%s\n\n", url, writeBody(t, dir, i)))
		case 1:
			targets = append(targets, fmt.Sprintf("POST %srpc\n@bodies/slot.json\n\n", url))
		default:
			targets = append(targets, fmt.Sprintf("GET %shealth\n\n", url))
		}
	}
	pr, pw := io.Pipe()
	t.Cleanup(func() { pr.Close() })
	go func() {
		defer pw.Close()
		for _, target := range targets {
			if _, err := io.WriteString(pw, target); err != nil {
				return
			}
		}
	}()
	r := cliSetup{stdin: pr}.run(t, "--targets", "-", "--rate", "300/s")
	mustRun(t, r, exitOK)
	if r.snap.EndReason != engine.EndTargetsEnded {
		t.Errorf("end reason %q, want %q", r.snap.EndReason, engine.EndTargetsEnded)
	}
	got := requestCounts(t, r.snap)
	st := node.Stats()
	if got["getBalance"] != 30 || got["getSlot"] != 30 || got["GET /health"] != 30 || len(got) != 3 {
		t.Errorf("requests %v, want 30 each of getBalance, getSlot and GET /health", got)
	}
	if st.Methods["getBalance"] != 30 || st.Methods["getSlot"] != 30 {
		t.Errorf("the node counted %v", st.Methods)
	}
	if r.snap.Totals.Sent != 90 {
		t.Errorf("sent %d: want every target sent once", r.snap.Totals.Sent)
	}
}

// writeBody writes the body of the i-th getBalance target and returns its path relative to
// dir.
func writeBody(t *testing.T, dir string, i int) string {
	name := fmt.Sprintf("bodies/balance-%d.json", i)
	writeFile(t, dir, name, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["acct%d"]}`, i))
	return name
}

// endless writes json targets until its reader is closed.
type endless struct{ url string }

func (e endless) writeTo(w *io.PipeWriter) {
	line := fmt.Sprintf(`{"method":"POST","url":%q,"body":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOjEsIm1ldGhvZCI6ImdldFNsb3QifQ=="}`+"\n", e.url)
	for {
		if _, err := io.WriteString(w, line); err != nil {
			return
		}
	}
}

// TestE2ETargetsStdinEndless: an endless generator does not hang the run: it starts at the
// first target and --duration ends it.
func TestE2ETargetsStdinEndless(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	pr, pw := io.Pipe()
	t.Cleanup(func() { pr.Close() })
	go endless{url}.writeTo(pw)
	r := cliSetup{stdin: pr}.run(t, "--targets", "-", "--rate", "200/s", "--duration", "1s")
	mustRun(t, r, exitOK)
	if r.snap.EndReason != engine.EndCompleted || r.snap.Totals.Scheduled != 200 || r.snap.Totals.Completed != node.Stats().Methods["getSlot"] {
		t.Errorf("end %q, scheduled %d completed %d, node %v; want 200 scheduled by the plan's end, and the node's count",
			r.snap.EndReason, r.snap.Totals.Scheduled, r.snap.Totals.Completed, node.Stats().Methods)
	}
}

// TestE2ETargetsStdinBadInput: bad input on standard input is bad input (exit 2, with the
// line): before the run when it is the first target, else after the run, which stops there
// with what it sent saved.
func TestE2ETargetsStdinBadInput(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	good := fmt.Sprintf(`{"method":"POST","url":%q,"body":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOjEsIm1ldGhvZCI6ImdldFNsb3QifQ=="}`+"\n", url)
	tests := []struct {
		input   string
		want    string // in stderr
		sent    int64  // -1: no run, no snapshot
		endedBy string
	}{
		// nothing at all
		{"", "stdin:1: targets: has no targets", -1, ""},
		// a bad first target: nothing is sent
		{"GET\n", `stdin:1: targets: "GET" is not a target`, -1, ""},
		// a bad tenth line: the nine before are sent
		{strings.Repeat(good, 9) + `{"method":"POST","url":"` + url + `","bogus":1}` + "\n" + good, `stdin:10: targets: not a JSON target (unknown field "bogus")`, 9, engine.EndTargetsFailed},
		// another host half way: one host per run
		{strings.Repeat(good, 3) + `{"method":"POST","url":"http://127.0.0.2:1/"}` + "\n", "stdin:4: targets: this target's host http://127.0.0.2:1 differs from", 3, engine.EndTargetsFailed},
	}
	for _, tt := range tests {
		r := cliSetup{stdin: strings.NewReader(tt.input)}.run(t, "--targets", "-", "--rate", "100/s")
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.input, r.code, r.stderr, tt.want)
			continue
		}
		switch {
		case tt.sent < 0 && r.snap != nil:
			t.Errorf("%q: a snapshot was written, though nothing should have run", tt.input)
		case tt.sent >= 0 && (r.snap == nil || r.snap.Totals.Sent != tt.sent || r.snap.EndReason != tt.endedBy):
			t.Errorf("%q: want %d sent, end %q; got %+v", tt.input, tt.sent, tt.endedBy, r.snap)
		}
	}
	r := cliSetup{stdin: strings.NewReader(good)}.run(t, "--targets", "-")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--targets - needs a --rate") {
		t.Errorf("no rate: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestE2ETargetsStdinJSONRPCLines: what generators such as ethspam write, a JSON-RPC call per
// line, streams to --url: `ethspam | rpcstress --targets - --url http://node --rate 500/s`.
func TestE2ETargetsStdinJSONRPCLines(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"eth_blockNumber"}`+"\n", i)
		fmt.Fprintf(&b, `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"}]`+"\n")
	}
	r := cliSetup{stdin: strings.NewReader(b.String())}.run(t, "--targets", "-", "--url", url, "--rate", "400/s")
	mustRun(t, r, exitOK)
	got, st := requestCounts(t, r.snap), node.Stats()
	if got["eth_blockNumber"] != 50 || got["batch"] != 50 || st.Methods["eth_blockNumber"] != 50 || st.Methods["getSlot"] != 100 {
		t.Errorf("rpcstress %v, node %v; want 50 eth_blockNumber and 50 batches of 2 getSlot", got, st.Methods)
	}
	// Each call is matched to its answer by its own line's id, not by the first line's.
	if c := r.snap.Totals.Calls; c.Sent != 150 || c.OK != 150 || len(c.Faults) > 0 {
		t.Errorf("calls %+v; want 150 sent and ok, no faults", c)
	}
	r = cliSetup{stdin: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}` + "\n")}.run(t, "--targets", "-", "--rate", "1/s")
	if r.code != exitUsage || !strings.Contains(r.stderr, "stdin:1: targets: a call without a URL: name the node with --url") {
		t.Errorf("calls without --url: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestE2ETargetsStdinWaits: a generator that has not written yet is waited for, and after a
// second rpcstress says so (a forgotten pipe must not look like a hang); a signal meanwhile
// ends the program, nothing sent.
func TestE2ETargetsStdinWaits(t *testing.T) {
	t.Parallel()
	pr, _ := io.Pipe() // nothing is ever written
	t.Cleanup(func() { pr.Close() })
	run := cliSetup{stdin: pr}.start(t, "--targets", "-", "--rate", "10/s")
	waiting := func(stderr string) bool {
		return strings.Contains(stderr, "waiting for the first target on standard input")
	}
	run.awaitStderr(t, 5*time.Second, "word of waiting", waiting)
	run.interrupt()
	r := run.wait(t, 5*time.Second) // or the signal did not end the wait
	if want := "SIGINT while waiting for the first target on standard input: nothing was sent"; r.code != 130 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want 130 and %q", r.code, r.stderr, want)
	}
}
