package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		i, n int
		ok   bool
	}{
		{"1/2", 1, 2, true},                     // the first of two machines
		{"2/2", 2, 2, true},                     // the last one
		{"1/1", 1, 1, true},                     // one machine: a shard of the whole
		{" 3 / 4 ", 3, 4, true},                 // spaces around the numbers are read past
		{"0/2", 0, 0, false},                    // shards count from 1
		{"3/2", 0, 0, false},                    // I above N
		{"1/0", 0, 0, false},                    // no machines
		{"-1/2", 0, 0, false},                   // negative
		{"2", 0, 0, false},                      // no slash: N missing
		{"a/2", 0, 0, false},                    // not a number
		{"1/2/3", 0, 0, false},                  // one slash only
		{"", 0, 0, false},                       // empty
		{"1.5/2", 0, 0, false},                  // whole numbers only
		{"1/99999999999999999999", 0, 0, false}, // N beyond int
	}
	for _, tt := range tests {
		i, n, err := parseShard(tt.in)
		if tt.ok {
			if err != nil || i != tt.i || n != tt.n {
				t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d", tt.in, i, n, err, tt.i, tt.n)
			}
			continue
		}
		want := fmt.Sprintf("--shard %q: write I/N with 1 ≤ I ≤ N, e.g. --shard 2/4", tt.in)
		if err == nil || err.Error() != want || i != 0 || n != 0 {
			t.Errorf("parseShard(%q) = %d, %d, %v; want the error %q", tt.in, i, n, err, want)
		}
	}
}

// FuzzParseShard: any input gives either a shard with 1 ≤ I ≤ N that prints back as it reads,
// or an error that names the input and shows the form; never a panic.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/2", "0/0", "3/2", " 2 / 4 ", "x", "1/", "/1", "+1/+2", "1/2/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("--shard %q", s)) || !strings.Contains(err.Error(), "e.g. --shard 2/4") {
				t.Errorf("parseShard(%q): error %q does not name the input and the form", s, err)
			}
			return
		}
		if i < 1 || i > n {
			t.Fatalf("parseShard(%q) = %d/%d: outside 1 ≤ I ≤ N", s, i, n)
		}
		if i2, n2, err := parseShard(fmt.Sprintf("%d/%d", i, n)); err != nil || i2 != i || n2 != n {
			t.Errorf("parseShard(%q) = %d/%d, which reads back as %d/%d, %v", s, i, n, i2, n2, err)
		}
	})
}
