package main

import (
	"fmt"
	"io"
	"slices"
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

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args     []string
		pos      []string
		rate     string
		headless bool
		err      string // "" for none
	}{
		{[]string{"p.toml", "--rate", "5/s"}, []string{"p.toml"}, "5/s", false, ""},              // flags after the profile
		{[]string{"--rate", "5/s", "p.toml"}, []string{"p.toml"}, "5/s", false, ""},              // before it
		{[]string{"a.json", "--headless", "b.json"}, []string{"a.json", "b.json"}, "", true, ""}, // between positional arguments
		{[]string{"--rate=5/s", "a", "b", "--headless"}, []string{"a", "b"}, "5/s", true, ""},    // -flag=value, and after all of them
		{[]string{"a", "--rate", "1/s", "--rate", "2/s"}, []string{"a"}, "2/s", false, ""},       // a flag given twice: the last wins
		{nil, nil, "", false, ""}, // nothing at all
		{[]string{"p.toml", "--rate"}, nil, "", false, "flag needs an argument: -rate"},          // a flag without its value
		{[]string{"p.toml", "--bogus"}, nil, "", false, "flag provided but not defined: -bogus"}, // an unknown flag
		{[]string{"--", "--rate", "x"}, []string{"--rate", "x"}, "", false, ""},                  // -- ends the flags before it
	}
	for _, tt := range tests {
		fs, f := newRunFlags(io.Discard)
		pos, err := parseInterleaved(fs, tt.args)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(pos, tt.pos) || f.rate != tt.rate || f.headless != tt.headless {
			t.Errorf("%q: positional %q rate %q headless %v, error %v; want %q %q %v",
				tt.args, pos, f.rate, f.headless, err, tt.pos, tt.rate, tt.headless)
		}
	}
}
