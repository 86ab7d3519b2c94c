package profiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, every failure must be an
// *Error whose problems say something and point inside the file, and every success must be a
// Config the engine can run. Body files come from memory, so that a fuzzed body_file such as
// "/dev/stdin" cannot block or touch the disk; otherwise this is LoadBytes.
// The committed corpus lives in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	addSeedFiles(f, BundledFS(), BundledNames()...)
	f.Add([]byte(secretProfile))
	f.Add([]byte(threeStages))
	f.Add([]byte(expectProfile))
	f.Add([]byte(watchSeed))
	f.Add([]byte(subscribeSeed))
	f.Add([]byte(sideProfile))
	f.Add([]byte(h2Profile("https://h:1", "http2 = true\nstreams = 100"))) // HTTP/2's keys
	f.Add([]byte(h2Profile("http://h:1", "h2c = true\nstreams = 0")))
	f.Add([]byte(deepProfile(nest(maxDepth, "[{a.b=", "1", "}]")))) // past the depth limit
	bodies := fstest.MapFS{"heavy.json": {Data: []byte(`[{"method":"a"}]`)}}
	env := mapEnv(map[string]string{"RPC_TOKEN": "t", "HOST": "127.0.0.1:1", "INFURA_KEY": "k"})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := load(&source{name: "f.toml", getenv: env, readBody: fsReader(bodies), open: fsOpener(bodies)}, data)
		if err != nil {
			checkFailure(t, data, err)
			return
		}
		checkProfile(t, p)
	})
}

// addSeedFiles adds files of fsys to a fuzzer's seed corpus: real inputs to mutate from.
func addSeedFiles(f *testing.F, fsys fs.FS, names ...string) {
	f.Helper()
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkFailure checks that a load error is complete.
func checkFailure(t *testing.T, data []byte, err error) {
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) == 0 || err.Error() == "" {
		t.Fatalf("error %T %q is not a non-empty *Error", err, err)
	}
	lines := bytes.Count(data, []byte("\n")) + 1
	for _, p := range e.Problems {
		if p.Msg == "" || p.Line < 1 || p.File == "f.toml" && p.Line > lines {
			t.Fatalf("problem %+v (file has %d lines)", p, lines)
		}
	}
}

// checkProfile checks what the engine relies on, and that the views and Apply cope.
func checkProfile(t *testing.T, p *Profile) {
	c := p.Config
	if c.URL == "" || c.Timeout <= 0 || c.Connections < 1 || c.MaxBodyBytes < 1 || len(c.Requests)+len(c.Subscriptions) == 0 || len(c.Plan.Stages) == 0 {
		t.Fatalf("incomplete config %+v", c)
	}
	for _, r := range c.Requests {
		if r.Weight < 1 || r.Items < 1 || len(r.Body) == 0 && r.Method == "" { // targets may send no body
			t.Fatalf("bad request %+v", r)
		}
		if r.RPC != nil { // a send costs what its calls do
			var sum uint32
			for i := range r.RPC.Calls() {
				sum += r.RPC.Spec(i).Cost
			}
			if sum != r.Cost {
				t.Fatalf("request %s costs %d a send, its calls %d", r.Name, r.Cost, sum)
			}
		}
	}
	for i := range c.Subscriptions {
		if err := c.Subscriptions[i].Check(); err != nil { // what the engine would refuse
			t.Fatal(err)
		}
	}
	for i, st := range c.Plan.Stages {
		if st.Rate < 0 || st.Duration < 0 || st.Duration == 0 && i != len(c.Plan.Stages)-1 {
			t.Fatalf("bad stage %d: %+v", i+1, st)
		}
	}
	checkSecretsHidden(t, p)
	r := ratePtr(3)
	_ = p.Apply(Overrides{Rate: r, Duration: time.Second, Connections: 2})
	_ = p.Apply(Overrides{Duration: 90 * time.Second})
	// Targets from the command line, one of them named as the profile's first target (whose
	// headers it keeps, secrets and all), with the answers compared.
	first := "a"
	if len(p.base.Targets) > 0 {
		first = p.base.Targets[0].Name
	}
	if p.Apply(Overrides{Targets: []TargetURL{{first, "http://u:p@h/?k=v"}, {"z-2", "http://z"}}, Equality: true}) == nil {
		checkSecretsHidden(t, p)
	}
}

// checkSecretsHidden checks that neither Describe nor Redacted shows a secret header's value.
// A secret's value may rightly occur elsewhere in the profile (a ${HOST} used in both the URL
// and a header, a token that is also in a body), so each secret value is first swapped for a
// marker that cannot occur anywhere else; whatever then shows the marker leaks the header.
func checkSecretsHidden(t *testing.T, p *Profile) {
	t.Helper()
	const marker = "\x01secret-marker\x01"
	q := *p
	cfg := *p.Config
	q.Config = &cfg
	cfg.Headers = markSecrets(cfg.Headers, marker)
	cfg.Targets = append([]engine.Target(nil), cfg.Targets...)
	for i := range cfg.Targets { // a target's own headers, as secret as the profile's
		cfg.Targets[i].Headers = markSecrets(cfg.Targets[i].Headers, marker)
	}
	var b bytes.Buffer
	q.Describe(&b)
	js, err := json.Marshal(q.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), marker) {
		t.Fatalf("Describe shows a secret header's value:\n%s", b.String())
	}
	if bytes.Contains(js, []byte("secret-marker")) {
		t.Fatalf("Redacted shows a secret header's value: %s", js)
	}
}

// markSecrets is a copy of hs with each secret value replaced by marker.
func markSecrets(hs []engine.Header, marker string) []engine.Header {
	out := append([]engine.Header(nil), hs...)
	for i := range out {
		if out[i].Secret {
			out[i].Value = marker
		}
	}
	return out
}
