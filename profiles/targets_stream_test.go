package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// drain reads a stream to its end: the requests in order (name and body), and the error that
// ended it (nil for the end of input).
func drain(t *testing.T, s engine.Source) (names, bodies []string, err error) {
	t.Helper()
	var table []string
	for {
		st, err := s.Next()
		if errors.Is(err, io.EOF) {
			return names, bodies, nil
		}
		if err != nil {
			return names, bodies, err
		}
		if st.Index == len(table) {
			if st.Request == nil {
				t.Fatalf("request %d first appears without its description", st.Index)
			}
			table = append(table, st.Request.Name)
		}
		names = append(names, table[st.Index])
		bodies = append(bodies, string(st.Body))
	}
}

// TestTargetStreamLikeTheFile: the same target files streamed (a byte at a time, so that
// nothing depends on how the input arrives) give the targets in file order, named as the
// file's mix names them, @bodies found from the working directory.
func TestTargetStreamLikeTheFile(t *testing.T) {
	for _, file := range []string{"rpc.http", "rpc.jsonl"} {
		t.Run(file, func(t *testing.T) {
			p := mustLoad(t, "targets = \"targets/"+file+"\"\n[[stage]]\nrate = 1\n")
			data, err := os.ReadFile("testdata/targets/" + file)
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir("testdata/targets")
			p2, err := FromTargets("-", TargetOptions{Rate: 100, Stdin: iotest.OneByteReader(bytes.NewReader(data))}, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := p2.Config
			if c.Source == nil || c.SourceRequests != maxTargetShapes || len(c.Requests) != 0 || c.URL != p.Config.URL || p2.Name != "stdin" {
				t.Fatalf("streamed profile: source %v of %d, %d requests, url %q, name %q", c.Source, c.SourceRequests, len(c.Requests), c.URL, p2.Name)
			}
			names, bodies, err := drain(t, c.Source)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"getBalance", "getBalance", "getSlot", "GET /health"} // file order
			if strings.Join(names, ",") != strings.Join(want, ",") {
				t.Errorf("names %q, want %q", names, want)
			}
			var mix []string // the file's mix: the same requests, in order of appearance
			for _, r := range p.Config.Requests {
				mix = append(mix, r.Name)
			}
			if got := strings.Join(mix, ","); got != "getBalance,getSlot,GET /health" {
				t.Errorf("the file's mix %q", got)
			}
			if !strings.Contains(bodies[0], "4EVAJ") || !strings.Contains(bodies[1], "9WzDX") || bodies[3] != "" {
				t.Errorf("bodies %q", bodies)
			}
		})
	}
}

// TestTargetStreamIsLazy: a target is handed over as soon as it is complete, while the input
// is still open (an endless generator is never read to its end first).
func TestTargetStreamIsLazy(t *testing.T) {
	for _, tt := range []struct {
		format, first string
	}{
		{"json", `{"method":"GET","url":"http://h:1/a"}` + "\n"}, // a json target ends with its line
		{"http", "GET http://h:1/a\n\n"},                         // an http one with a blank line
	} {
		pr, pw := io.Pipe()
		go func() { _, _ = io.WriteString(pw, tt.first) }() // and then nothing, never closed
		got := make(chan error, 1)
		go func() {
			_, err := FromTargets("-", TargetOptions{Rate: 1, Stdin: pr}, nil)
			got <- err
		}()
		select {
		case err := <-got:
			if err != nil {
				t.Errorf("%s: %v", tt.format, err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the first target was not handed over while the input stayed open", tt.format)
		}
		pr.Close()
	}
}

func TestTargetStreamProblems(t *testing.T) {
	distinct := func(n int) string { // n targets with distinct paths: n requests
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"method":"GET","url":"http://h:1/p%d"}`+"\n", i)
		}
		return b.String()
	}
	tests := []struct {
		input string
		url   string // --url
		names string // the requests streamed before the end
		err   string // "" for the end of input
	}{
		// comments and blank lines before the first target do not decide the format
		{"# replay\n\n{\"method\":\"GET\",\"url\":\"http://h:1/\"}\n", "", "GET /", ""},
		// the same JSON-RPC method on two paths: two requests, the second named #2
		{"POST http://h:1/a\n@slot.json\n\nPOST http://h:1/b\n@slot.json\n\nPOST http://h:1/a\n@slot.json\n", "", "getSlot,getSlot#2,getSlot", ""},
		// the last line may lack its line end
		{"GET http://h:1/x", "", "GET /x", ""},
		// a bad line ends the stream at that line, after the targets before it
		{"GET http://h:1/\n\nGET http://h:1/\nnot a header\n", "", "GET /", `stdin:4: targets: "not a header" is neither a header`},
		// a missing body file, relative to the working directory
		{"POST http://h:1/\n@none.json\n", "", "", `stdin:2: targets: body "none.json" not found`},
		// one host per run
		{"GET http://h:1/\n\nGET http://other:1/\n", "", "GET /", "stdin:3: targets: this target's host http://other:1 differs from http://h:1 (line 1)"},
		// the same cap of distinct requests as a file
		{distinct(maxTargetShapes + 1), "", "", fmt.Sprintf("stdin:%d: targets: more than %d distinct requests", maxTargetShapes+1, maxTargetShapes)},
		// a line that cannot be a target is not read whole
		{"GET http://h:1/\n\n" + strings.Repeat("x", maxTargetLine+1), "", "GET /", "stdin:3: targets: the line is longer than"},
		// ethspam's format, a JSON-RPC call or batch per line, to --url
		{`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}` + "\n" + `[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}]` + "\n",
			"http://h:1/v3/key", "eth_blockNumber,batch", ""},
		// without --url such calls have nowhere to go
		{`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}` + "\n", "", "", "stdin:1: targets: a call without a URL: name the node with --url"},
		// a line that is not JSON among calls
		{`{"jsonrpc":"2.0","method":"a"}` + "\n" + `{"jsonrpc` + "\n", "http://h:1/", "a", `stdin:2: targets: "{\"jsonrpc" is not a JSON-RPC call`},
	}
	files := fstest.MapFS{"slot.json": {Data: []byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)}}
	for _, tt := range tests {
		s := newTargetStream(strings.NewReader(tt.input), "", fsReader(files), tt.url)
		names, _, err := drain(t, s)
		if len(names) > 3 {
			names = names[:0] // the long ones: only the error matters
		}
		if got := strings.Join(names, ","); got != tt.names {
			t.Errorf("%.60q: requests %q, want %q", tt.input, got, tt.names)
		}
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%.60q: %v", tt.input, err)
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("%.60q: error %v, want %q…", tt.input, err, tt.err)
		}
	}
	if _, err := LoadBytes("p.toml", []byte("targets = \"-\"\n[[stage]]\nrate = 1\n"), "", nil); err == nil ||
		!strings.Contains(err.Error(), `p.toml:1: targets: "-" is standard input, which only the command line reads`) {
		t.Errorf("targets = \"-\" in a profile: %v", err)
	}
}

// TestTargetStreamCalls: a streamed request is described with its JSON-RPC calls, read per
// send (each target's body has its own ids), like a target file's requests whose bodies vary.
func TestTargetStreamCalls(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"}` + "\n" +
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":2,"method":"a"}]` + "\n" + "GET http://h:1/health\n"
	s := newTargetStream(strings.NewReader(in), "", nil, "http://h:1/")
	var reqs []*engine.Request
	for {
		st, err := s.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// The last line is not a call: the jsonrpc format was detected from the first.
			if !strings.Contains(err.Error(), "stdin:4: targets:") {
				t.Fatal(err)
			}
			break
		}
		if st.Request != nil {
			reqs = append(reqs, st.Request)
		}
	}
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, want := range []struct {
		calls int
		batch bool
	}{{1, false}, {2, true}} {
		c := reqs[i].RPC
		if c == nil || !c.PerSend || c.Calls() != want.calls || c.Batch != want.batch {
			t.Errorf("%s: calls %+v, want %d read per send (batch %v)", reqs[i].Name, c, want.calls, want.batch)
		}
	}
	s = newTargetStream(strings.NewReader("GET http://h:1/health\n"), "", nil, "")
	if st, err := s.Next(); err != nil || st.Request == nil || st.Request.RPC != nil {
		t.Errorf("a GET without a body: %+v, %v; want no calls", st.Request, err)
	}
}

// FuzzTargetStream: any input streams targets until its end or a problem; never a panic or an
// endless loop, every problem at a line of the input, every request one the engine can send.
func FuzzTargetStream(f *testing.F) {
	addSeedFiles(f, os.DirFS("testdata/targets"), "rpc.http", "rpc.jsonl")
	f.Add([]byte("# c\n\nGET http://a/\n\nGET http://a/b\nX: 1\n"))
	f.Add([]byte(`{"method":"POST","url":"http://h/","body":"e30="}` + "\nGET http://h/\n"))
	files := fstest.MapFS{"b.json": {Data: []byte(`{"jsonrpc":"2.0","id":1,"method":"a"}`)}}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		s := newTargetStream(bytes.NewReader(data), "", fsReader(files), "http://h:1/rpc")
		for range lines + 1 { // at most one target per line, then the end
			st, err := s.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var pe *Error
			if errors.As(err, &pe) {
				for _, p := range pe.Problems {
					if p.Msg == "" || p.Line < 1 || p.Line > lines {
						t.Fatalf("problem %+v (input of %d lines)", p, lines)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.Request != nil {
				r := *st.Request
				r.Body, r.Weight = st.Body, 1
				if _, err := engine.NewClient(&engine.Config{URL: s.url(), Timeout: time.Second, Connections: 1, Requests: []engine.Request{r}}, nil); err != nil {
					t.Fatalf("the engine refuses %+v: %v", r, err)
				}
			}
		}
		t.Fatalf("more targets than lines in %q", data)
	})
}

// BenchmarkTargetStream is the feeder's cost per streamed target (json format, a JSON-RPC
// body each): what bounds the rate a stream on standard input can keep up with.
func BenchmarkTargetStream(b *testing.B) {
	line := []byte(`{"method":"POST","url":"http://127.0.0.1:8899/","body":"eyJqc29ucnBjIjoiMi4wIiwiaWQiOjEsIm1ldGhvZCI6ImdldEJhbGFuY2UiLCJwYXJhbXMiOlsiNEVWQUo4MXY5ZkxqejJ3cDQ0U1pteGdUYnZZQjhkQlJaNnMxU0FxUDk5ZVoiXX0=","header":{"Content-Type":["application/json"]}}` + "\n")
	data := bytes.Repeat(line, b.N)
	s := newTargetStream(bytes.NewReader(data), "", nil, "")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Next(); err != nil {
			b.Fatal(err)
		}
	}
}
