package profiles

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestUniqueNames: unnamed requests of one method get #2, #3 … in mix order, skipping names
// taken explicitly; names made from another name ("a#2" again) get their own suffix.
func TestUniqueNames(t *testing.T) {
	tests := []struct {
		name  string
		given []string // a leading "=" marks an explicit name
		want  []string
	}{
		// distinct methods keep their names
		{"distinct", []string{"a", "b"}, []string{"a", "b"}},
		// repeats count from 2, in mix order
		{"repeats", []string{"a", "a", "a"}, []string{"a", "a#2", "a#3"}},
		// an explicit name is kept and skipped by the generated ones, wherever it is
		{"explicit", []string{"a", "a", "=a#2"}, []string{"a", "a#3", "a#2"}},
		// an explicit name equal to the method: the unnamed one moves on
		{"explicit base", []string{"a", "=a"}, []string{"a#2", "a"}},
		// a generated name that another request has as its base gets a suffix of its own
		{"suffix of a suffix", []string{"a", "a", "a#2"}, []string{"a", "a#2", "a#2#2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mix := make([]mixEntry, len(tt.given))
			for i, g := range tt.given {
				mix[i].named = strings.HasPrefix(g, "=")
				mix[i].req.Name = strings.TrimPrefix(g, "=")
			}
			uniqueNames(mix)
			for i, w := range tt.want {
				if mix[i].req.Name != w {
					t.Errorf("request %d: %q, want %q", i+1, mix[i].req.Name, w)
				}
			}
		})
	}
}

// TestUniqueNamesLinear: naming n unnamed requests of one method costs about n steps, not
// n²/2: a generated 10,000-request profile took 13 s to load when every request probed
// "m#2", "m#3" … from the start. Counted in allocations (one name each), not in time.
func TestUniqueNamesLinear(t *testing.T) {
	const n = 2000
	allocs := testing.AllocsPerRun(1, func() {
		mix := make([]mixEntry, n)
		for i := range mix {
			mix[i].req = engine.Request{Name: "eth_getBalance"}
		}
		uniqueNames(mix)
		if got, want := mix[n-1].req.Name, "eth_getBalance#"+strconv.Itoa(n); got != want {
			t.Fatalf("last name %q, want %q", got, want)
		}
	})
	if perName := allocs / n; perName > 10 {
		t.Errorf("%.0f allocations per request named, want a few (quadratic naming?)", perName)
	}
}
