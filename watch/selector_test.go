package watch

import (
	"maps"
	"strings"
	"testing"
)

func TestParseSelector(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		wantName   string
		wantLabels map[string]string
		wantErr    string
	}{
		// A bare name.
		{"name", "chain_head_block", "chain_head_block", map[string]string{}, ""},
		// Labels, with spaces around, as the endpoint writes them.
		{"labels", ` node_cpu_seconds_total{mode="user", cpu="0"} `, "node_cpu_seconds_total", map[string]string{"mode": "user", "cpu": "0"}, ""},
		// Escapes in a label value are read as the exposition format reads them.
		// rate(…) shows any series per second.
		{"rate", ` rate( rpc_requests{kind="x"} ) `, "rpc_requests", map[string]string{"kind": "x"}, ""},
		{"escaped", `m{path="a\"b\\c"}`, "m", map[string]string{"path": `a"b\c`}, ""},
		// Empty.
		{"empty", "  ", "", nil, "is empty"},
		// PromQL's other operators are not for here.
		{"regex", `m{mode=~"u.*"}`, "", nil, "is not a series"},
		// A label without its value.
		{"no value", `m{mode=}`, "", nil, "is not a series"},
		// A comment or a second line would be another series.
		{"newline", "a\nb", "", nil, "is not a series"},
		{"comment", "# TYPE a counter", "", nil, "is not a series"},
		// A value in the selector would make a second value.
		{"with value", "m 1", "", nil, "is not a series"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSelector(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %+v, %v; want an error with %q", s, err, tc.wantErr)
				}
				return
			}
			if err != nil || s.Name != tc.wantName || !maps.Equal(s.Labels, tc.wantLabels) {
				t.Fatalf("got %+v, %v", s, err)
			}
		})
	}
}

// FuzzParseSelector: any text gives a selector or an error, never a panic; a selector has a
// name, and reads back the same from its own text.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"a", `a{b="c"}`, `a{b="c",d="e"}`, "a{", `{"a"}`, "a 1", "ä{ü=\"ö\"}", `a{b="\n"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSelector(in)
		if err != nil {
			return
		}
		if s.Name == "" {
			t.Fatalf("%q: a selector without a name", in)
		}
		again, err := ParseSelector(s.Text)
		if err != nil || again.Name != s.Name || !maps.Equal(again.Labels, s.Labels) {
			t.Fatalf("%q read back as %+v, %v", s.Text, again, err)
		}
	})
}
