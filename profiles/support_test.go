package profiles

import (
	"strings"
	"testing"
)

// The steps most profile tests take: load a profile that must load, read what validate says
// of it, check that a refused override changed nothing, and that no secret shows. One place
// each, so every test checks them the same way.

// mustLoad loads src as "t.toml" (its files from testdata/, an empty environment), failing
// the test if it does not load.
func mustLoad(t testing.TB, src string) *Profile {
	t.Helper()
	return mustLoadIn(t, src, "testdata", nil)
}

// mustLoadIn is mustLoad with the profile's files in dir ("" is the working directory) and env
// as the environment its ${VAR}s read (nil: an empty one).
func mustLoadIn(t testing.TB, src, dir string, env map[string]string) *Profile {
	t.Helper()
	p, err := LoadBytes("t.toml", []byte(src), dir, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mapEnv is a getenv over a map.
func mapEnv(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

// described is what `rpcstress validate` prints of p.
func described(p *Profile) string {
	var b strings.Builder
	p.Describe(&b)
	return b.String()
}

// checkLines fails for each of lines that is not a whole line of out (validate's text).
func checkLines(t *testing.T, out string, lines []string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("no line %q in:\n%s", l, out)
		}
	}
}

// applyRefused applies o to p, which must refuse it and leave p.Config as it was, and
// returns the refusal.
func applyRefused(t *testing.T, p *Profile, o Overrides) error {
	t.Helper()
	before := p.Config
	err := p.Apply(o)
	if err == nil {
		t.Fatalf("Apply(%+v) was not refused", o)
	}
	if p.Config != before {
		t.Error("a failed Apply changed Config")
	}
	return err
}

// checkHidden fails for each of secrets that shows in one of outputs (by name).
func checkHidden(t *testing.T, secrets []string, outputs map[string]string) {
	t.Helper()
	for name, out := range outputs {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s shows %q:\n%s", name, s, out)
			}
		}
	}
}
