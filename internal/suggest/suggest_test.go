package suggest

import "testing"

func TestClosest(t *testing.T) {
	verbs := []string{"validate", "report", "compare", "merge", "find-limit", "mocknode", "completion", "version", "help"}
	keys := []string{"url", "rate", "connections", "duration"}
	tests := []struct {
		typed string
		valid []string
		want  string
	}{
		{"valdate", verbs, "validate"},      // one letter missing
		{"reprot", verbs, "report"},         // two letters swapped: two edits
		{"findlimit", verbs, "find-limit"},  // the dash forgotten
		{"completoin", verbs, "completion"}, // a transposition in a long word
		{"x.toml", verbs, ""},               // a file name is no verb
		{"rat", keys, "rate"},               // short: one edit allowed
		{"ra", keys, ""},                    // short and two edits away: no guess
		{"URL", keys, "url"},                // case is ignored
		{"conections", keys, "connections"}, // the README's own example
		{"duration", keys, "duration"},      // exact
		{"", keys, ""},                      // nothing typed is close to nothing useful
		{"anything", nil, ""},               // no valid names
	}
	for _, tt := range tests {
		if got := Closest(tt.typed, tt.valid); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.typed, got, tt.want)
		}
	}
}

func FuzzClosest(f *testing.F) {
	f.Add("valdate", "validate")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, typed, valid string) {
		got := Closest(typed, []string{valid})
		if got != "" && got != valid {
			t.Fatalf("Closest(%q, [%q]) = %q: not one of the valid names", typed, valid, got)
		}
		if typed == valid && valid != "" && got != valid {
			t.Fatalf("Closest(%q, [%q]) = %q: an exact match must be found", typed, valid, got)
		}
	})
}
