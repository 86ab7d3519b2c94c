package profiles

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestTargetsFormats: the same targets in vegeta's http and json formats give the same mix:
// bodies that differ only in content share a request (sent in file order), the URL comes from
// the targets, queries stay out of names, target bodies that differ read their ids per send.
func TestTargetsFormats(t *testing.T) {
	for _, file := range []string{"targets/rpc.http", "targets/rpc.jsonl"} {
		t.Run(file, func(t *testing.T) {
			p := mustLoad(t, "targets = \""+file+"\"\n[[stage]]\nrate = 1\n")
			c := p.Config
			if c.URL != "http://127.0.0.1:8899/" || c.DisplayURL != "http://127.0.0.1:8899/" {
				t.Errorf("url %q display %q", c.URL, c.DisplayURL)
			}
			if len(c.Requests) != 3 {
				t.Fatalf("requests %+v", c.Requests)
			}
			bal, slot, health := c.Requests[0], c.Requests[1], c.Requests[2]
			if bal.Name != "getBalance" || bal.Method != "POST" || bal.Path != "/" || bal.Weight != 2 || bal.Template == nil || bal.Items != 1 || len(bal.Headers) != 0 {
				t.Errorf("getBalance %+v", bal)
			}
			rng := rand.New(rand.NewPCG(1, 1))
			for i, want := range []string{"4EVAJ", "9WzDX", "4EVAJ"} {
				if b := bal.Template.Append(nil, rng); !bytes.Contains(b, []byte(want)) {
					t.Errorf("send %d: %s, want the account %s…", i+1, b, want)
				}
			}
			if slot.Name != "getSlot" || slot.Path != "/?api-key=s3cret" || slot.Weight != 1 || slot.Template != nil ||
				len(slot.Headers) != 1 || slot.Headers[0] != (engine.Header{Name: "X-Api-Key", Value: "k1", Secret: true}) {
				t.Errorf("getSlot %+v", slot)
			}
			if health.Name != "GET /health" || health.Method != "GET" || len(health.Body) != 0 || p.info[2].RPCMethod != "" {
				t.Errorf("health %+v", health)
			}
			// Two bodies with different params read their ids per send; one fixed body does
			// not; a body-less GET has no calls.
			if c := bal.RPC; c == nil || c.Calls() != 1 || !c.PerSend {
				t.Errorf("%s: calls %+v, want one per send", bal.Name, c)
			}
			if c := slot.RPC; c == nil || c.Calls() != 1 || c.PerSend {
				t.Errorf("%s: calls %+v, want one fixed", slot.Name, c)
			}
			if health.RPC != nil {
				t.Errorf("%s: a body-less GET has calls %+v", health.Name, health.RPC)
			}
			if p.info[0].RPCMethod != "getBalance" || !strings.HasPrefix(p.info[0].Source, "targets:testdata/targets/rpc.") {
				t.Errorf("info %+v", p.info[0])
			}
			if out := described(p); strings.Contains(out, "s3cret") || !strings.Contains(out, "GET /health") {
				t.Errorf("Describe:\n%s", out)
			}
		})
	}
}

// TestTargetsWithProfile: targets join [[request]] tables; a profile url with the same host
// (written differently) is kept; a target format can be forced.
func TestTargetsWithProfile(t *testing.T) {
	p := mustLoad(t, `url = "http://127.0.0.1:8899/rpc"
targets = "targets/rpc.jsonl"
targets_format = "json"
[[request]]
method = "getBalance"
[[stage]]
rate = 1
`)
	names := []string{}
	for _, r := range p.Config.Requests {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, ","); got != "getBalance,getBalance#2,getSlot,GET /health" || p.Config.URL != "http://127.0.0.1:8899/rpc" {
		t.Errorf("names %s url %s", got, p.Config.URL)
	}
	_, err := LoadBytes("t.toml", []byte("targets = \"targets/rpc.jsonl\"\ntargets_format = \"http\"\n[[stage]]\nrate = 1\n"), "testdata", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "testdata/targets/rpc.jsonl:1: targets: ") {
		t.Errorf("a json file read as http: %v", err)
	}
}

// TestTargetErrors: problems in a target file name the file and the line.
func TestTargetErrors(t *testing.T) {
	tests := []struct {
		name    string
		profile string // before the stage; targets = "t.txt" unless it says otherwise
		file    string
		want    string
	}{
		{"no method", "", "http://h/\n", `t.txt:1: targets: "http://h/" is not a target: start each target with a line METHOD URL`},
		{"lower-case method", "", "get http://h/\n", `t.txt:1: targets: "get http://h/" is not a target`},
		{"bad header", "", "GET http://h/\nX-A 1\n", `t.txt:2: targets: "X-A 1" is neither a header (Name: value) nor a body file`},
		{"two bodies", "", "POST http://h/\n@b.json\n@b.json\n", "t.txt:3: targets: a second body file"},
		{"missing body", "", "POST http://h/\n@none.json\n", `t.txt:2: targets: body "none.json" not found`},
		{"empty @", "", "POST http://h/\n@\n", "t.txt:2: targets: @ without a file name"},
		{"bad scheme", "", "GET ftp://h/\n", `t.txt:1: targets: url scheme "ftp" is not supported`},
		{"no targets", "", "# nothing\n\n", "t.txt:1: targets: has no targets"},
		{"json syntax", "", `{"method":"GET","url":"http://h/"` + "\n", "t.txt:1: targets: not a JSON target"},
		{"json unknown field", "", `{"method":"GET","url":"http://h/","headers":{}}` + "\n", `t.txt:1: targets: not a JSON target (unknown field "headers")`},
		{"json base64", "", `{"method":"POST","url":"http://h/","body":"not base64!"}` + "\n", "t.txt:1: targets: not a JSON target (body must be base64"},
		{"json no url", "", `{"method":"GET"}` + "\n", "t.txt:1: targets: no url"},
		{"json method", "", `{"method":"get","url":"http://h/"}` + "\n", `t.txt:1: targets: method "get"`},
		{"json two objects", "", `{"method":"GET","url":"http://h/"} {}` + "\n", "t.txt:1: targets: more than one JSON object"},
		{"json header value", "", `{"method":"GET","url":"http://h/","header":{"X":["a\r\nb"]}}` + "\n", "t.txt:1: targets: header X: the value contains a line break"},
		{"hosts differ", "", "GET http://a/\n\nGET http://b/\n", "t.txt:3: targets: this target's host http://b:80 differs from http://a:80 (line 1): rpcstress sends to one host per run"},
		{"not the url host", "url = \"http://a:8899\"\n", "GET http://a:8899/\n\nGET https://a:8899/\n", "t.txt:3: targets: this target's host https://a:8899 is not the profile's url host http://a:8899"},
		{"format", "targets_format = \"csv\"\n", "GET http://h/\n", `t.toml:2: targets_format: "csv" is not a target format`},
		{"missing file", "targets = \"none.txt\"\n", "", `t.toml:1: targets: "none.txt" not found`},
		{"format alone", "targets_format = \"json\"\n[[request]]\nmethod = \"m\"\n", "", "t.toml:1: targets_format: goes with targets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, data string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("t.txt", tt.file)
			write("b.json", `{"method":"m"}`)
			src := tt.profile
			if !strings.Contains(src, "targets = ") && !strings.Contains(src, "[[request]]") {
				src = "targets = \"t.txt\"\n" + src
			}
			_, err := LoadBytes("t.toml", []byte(src+"[[stage]]\nrate = 1\n"), dir, nil)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v", err)
			}
			got := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			if !strings.Contains(got, tt.want) {
				t.Errorf("got:\n%s\nwant a problem containing:\n%s", got, tt.want)
			}
		})
	}
}

// TestFromTargets: a bare target file becomes a profile named after it, with the defaults.
func TestFromTargets(t *testing.T) {
	p, err := FromTargets("testdata/targets/rpc.http", TargetOptions{Rate: 50, Duration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config
	if p.Name != "rpc" || c.URL != "http://127.0.0.1:8899/" || c.Connections != 64 || c.Timeout != 5*time.Second ||
		len(c.Plan.Stages) != 1 || c.Plan.Stages[0] != (engine.Stage{Rate: 50, Duration: 2 * time.Second}) || len(c.Requests) != 3 {
		t.Errorf("profile %+v config %+v", p, c)
	}
	if _, err := FromTargets("testdata/targets/none.txt", TargetOptions{Rate: 1}, nil); err == nil || !strings.Contains(err.Error(), "none.txt") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad targets!.txt")
	if err := os.WriteFile(bad, []byte("GET http://h/\nnot a header\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = FromTargets(bad, TargetOptions{Rate: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), bad+":2: targets: ") {
		t.Errorf("error %v, want it at %s:2", err, bad)
	}
	if n := targetsProfileName("/x/my targets!.jsonl"); n != "my_targets_" {
		t.Errorf("name %q", n)
	}
}

// FuzzTargets feeds arbitrary target files to the parser and the mix builder: they must never
// panic; problems point inside the file; targets that pass make requests the engine can send.
// The committed corpus lives in testdata/fuzz/FuzzTargets.
func FuzzTargets(f *testing.F) {
	addSeedFiles(f, os.DirFS("testdata/targets"), "rpc.http", "rpc.jsonl")
	f.Add([]byte("GET http://a/\n\nGET http://b/\n"))
	f.Add([]byte("POST https://u:p@h:1/x?y=1\nHost: z\n@b.json\n"))
	f.Add([]byte(`{"method":"POST","url":"http://h/","body":"e30=","header":{"A":["1","2"]}}`))
	files := fstest.MapFS{"b.json": {Data: []byte(`[{"method":"a"},{"method":"b"}]`)}}
	f.Fuzz(func(t *testing.T, data []byte) {
		read := fsReader(files)
		c := &checker{file: "p.toml", lines: lineIndex{}}
		cfg := &engine.Config{}
		m := c.newTargetMixer("t.txt", cfg, true, "http://h:1/rpc")
		errs := parseTargets(bytes.NewReader(data), "", bodyFileReader("t.txt", read), m.add)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, e := range errs {
			if e.msg == "" || e.line < 1 || e.line > lines {
				t.Fatalf("problem %+v (file has %d lines)", e, lines)
			}
		}
		for _, p := range c.problems {
			if p.Msg == "" || p.Line < 1 || p.Line > lines {
				t.Fatalf("problem %+v (file has %d lines)", p, lines)
			}
		}
		if len(errs) > 0 || len(c.problems) > 0 {
			return
		}
		mix := m.finish()
		if len(mix) == 0 || checkURL(cfg.URL) != nil {
			t.Fatalf("no problems, but mix %d url %q", len(mix), cfg.URL)
		}
		for _, e := range mix {
			r := e.req
			if r.Weight < 1 || r.Items < 1 || r.Name == "" || !isHTTPMethod(r.Method) || !strings.HasPrefix(r.Path, "/") {
				t.Fatalf("bad request %+v", r)
			}
			if _, err := engine.NewClient(&engine.Config{URL: cfg.URL, Timeout: time.Second, Connections: 1, Requests: []engine.Request{r}}, nil); err != nil {
				t.Fatalf("the engine refuses %+v: %v", r, err)
			}
		}
	})
}
