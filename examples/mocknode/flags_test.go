package mocknode

import (
	"go/build"
	"strings"
	"testing"
)

func TestDidYouMean(t *testing.T) {
	fs := Flags(new(Config), new(string))
	tests := []struct {
		typed, want string
	}{
		// Cut short.
		{"rat", "rate"},
		// One letter too many at the end.
		{"rates", "rate"},
		// Two letters swapped.
		{"brust", "burst"},
		// One letter wrong.
		{"latancy", "latency"},
		// One letter missing in the middle.
		{"stall-evry", "stall-every"},
		// One letter extra in the middle.
		{"jittter", "jitter"},
		// Case does not matter.
		{"NoDelay", "nodelay"},
		// Too short to guess from.
		{"x", ""},
		{"st", ""},
		// Nothing like any flag.
		{"verbose", ""},
		// Two letters apart from latency, in another order too: a different word.
		{"lateness", ""},
	}
	for _, tt := range tests {
		if got := didYouMean(fs, tt.typed); got != tt.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}

// TestImportsNothingOfTheTester: the mock node is the ground truth the tester is checked
// against, so it must not share code with it (a bug there would hide on both sides). Its
// non-test files import no package of this module but itself; any deeper dependency on the
// tester would have to pass through such an import.
func TestImportsNothingOfTheTester(t *testing.T) {
	const module = "github.com/rpcstress/rpcstress/"
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkg.Imports) == 0 {
		t.Fatal("no imports read: the check would pass vacuously")
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, module) && imp != module+"examples/mocknode" {
			t.Errorf("imports %s", imp)
		}
	}
}
