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
)

// FuzzLoad feeds arbitrary bytes to the loader: it must never panic, every failure must be an
// *Error whose problems say something and point inside the file, and every success must be a
// Config the engine can run. Body files come from memory, so that a fuzzed body_file such as
// "/dev/stdin" cannot block or touch the disk; otherwise this is LoadBytes.
// The committed corpus lives in testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	for _, name := range BundledNames() {
		data, err := fs.ReadFile(BundledFS(), name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(secretProfile))
	f.Add([]byte(threeStages))
	bodies := fstest.MapFS{"heavy.json": {Data: []byte(`[{"method":"a"}]`)}}
	env := mapEnv(map[string]string{"RPC_TOKEN": "t", "HOST": "127.0.0.1:1", "INFURA_KEY": "k"})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := load(&source{name: "f.toml", getenv: env, readBody: fsReader(bodies)}, data)
		if err != nil {
			checkFailure(t, data, err)
			return
		}
		checkProfile(t, p)
	})
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
	if c.URL == "" || c.Timeout <= 0 || c.Connections < 1 || c.MaxBodyBytes < 1 || len(c.Requests) == 0 || len(c.Plan.Stages) == 0 {
		t.Fatalf("incomplete config %+v", c)
	}
	for _, r := range c.Requests {
		if r.Weight < 1 || r.Items < 1 || len(r.Body) == 0 && r.Method == "" { // targets may send no body
			t.Fatalf("bad request %+v", r)
		}
	}
	for i, st := range c.Plan.Stages {
		if st.Rate < 0 || st.Duration < 0 || st.Duration == 0 && i != len(c.Plan.Stages)-1 {
			t.Fatalf("bad stage %d: %+v", i+1, st)
		}
	}
	var b bytes.Buffer
	p.Describe(&b)
	if _, err := json.Marshal(p.Redacted()); err != nil {
		t.Fatal(err)
	}
	for _, h := range c.Headers {
		// Short values may occur elsewhere in the text by chance; long ones may not.
		if h.Secret && len(h.Value) > 8 && strings.Contains(b.String(), h.Value) {
			t.Fatalf("Describe shows secret header %s", h.Name)
		}
	}
	r := ratePtr(3)
	_ = p.Apply(Overrides{Rate: r, Duration: time.Second, Connections: 2})
	_ = p.Apply(Overrides{Duration: 90 * time.Second})
}
