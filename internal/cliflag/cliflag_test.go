package cliflag

import (
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"
)

// testFlags is a flag set like a run's: a string with a value name, a duration, ints, a bool.
func testFlags() (*flag.FlagSet, *time.Duration) {
	fs := flag.NewFlagSet("rpcstress", flag.ContinueOnError)
	var d time.Duration
	fs.String("rate", "", "one fixed `rate`")
	fs.String("out", "", "write the snapshot to this `file`")
	DurationVar(fs, &d, "duration", 0, "run for this long")
	fs.Int("connections", 0, "maximum connections (`N`)")
	fs.Float64("factor", 0, "a factor")
	fs.Bool("headless", false, "one line per second")
	return fs, &d
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // the whole message
	}{
		// a typo of a flag gets the flag it was close to
		{[]string{"--rat", "100/s"}, "unknown flag --rat: did you mean --rate?"},
		// nothing close: no guess
		{[]string{"--zzzzzz"}, "unknown flag --zzzzzz"},
		// a duration without a unit says which units there are
		{[]string{"--duration", "5"}, "--duration 5: needs a unit: 5s, 5m (units: ms, s, m, h)"},
		// a word is not a duration at all
		{[]string{"--duration", "soon"}, "--duration soon: not a duration, e.g. 30s (units: ms, s, m, h)"},
		// an int flag says what a whole number is, not "parse error"
		{[]string{"--connections", "many"}, "--connections many: not a whole number, e.g. 64"},
		// out of range
		{[]string{"--connections", "99999999999999999999"}, "--connections 99999999999999999999: too large"},
		// a float
		{[]string{"--factor", "x"}, "--factor x: not a number, e.g. 1.5"},
		// a bool given a value it cannot read
		{[]string{"--headless=maybe"}, "--headless=maybe: a switch takes true or false"},
		// a missing value names what is missing, by the usage's `name`
		{[]string{"p.toml", "--out"}, "--out needs a value: --out FILE"},
		// three dashes
		{[]string{"---rate", "1"}, "---rate: write a flag as --name or --name=value"},
	}
	for _, tt := range tests {
		fs, _ := testFlags()
		_, err := Parse(fs, tt.args)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: got %v\nwant %s", tt.args, err, tt.want)
		}
	}
}

func TestParsePositions(t *testing.T) {
	tests := []struct {
		args []string
		pos  []string
	}{
		{[]string{"p.toml", "--rate", "5/s"}, []string{"p.toml"}}, // flags after the profile
		{[]string{"--rate", "5/s", "a", "b"}, []string{"a", "b"}}, // before
		{[]string{"a", "--headless", "b"}, []string{"a", "b"}},    // between
		{[]string{"--", "--rate", "x"}, []string{"--rate", "x"}},  // "--" ends the flags
		{[]string{"a", "--", "-b"}, []string{"a", "-b"}},          // after a positional too
		{[]string{"-", "--out", "-"}, []string{"-"}},              // "-" is an argument (stdin), also as a value
		{[]string{"--duration=1m30s", "x"}, []string{"x"}},        // name=value
		{nil, nil}, // nothing
	}
	for _, tt := range tests {
		fs, _ := testFlags()
		pos, err := Parse(fs, tt.args)
		if err != nil || !slices.Equal(pos, tt.pos) {
			t.Errorf("%q: got %q, %v; want %q", tt.args, pos, err, tt.pos)
		}
	}
	fs, d := testFlags()
	if _, err := Parse(fs, []string{"--duration", "1m30s"}); err != nil || *d != 90*time.Second {
		t.Errorf("--duration 1m30s: %v, %v", *d, err)
	}
}

func TestParseHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		fs, _ := testFlags()
		if _, err := Parse(fs, []string{"p.toml", h}); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %v, want flag.ErrHelp", h, err)
		}
	}
}

func TestPrintFlagsFits80(t *testing.T) {
	fs, _ := testFlags()
	fs.String("save-every-very-long-flag-name", "", strings.Repeat("a long description ", 12)+"https://example.com/"+strings.Repeat("x", 90))
	var b strings.Builder
	PrintFlags(&b, fs)
	for _, l := range strings.Split(b.String(), "\n") {
		if len(l) > Width {
			t.Errorf("%d columns: %q", len(l), l)
		}
	}
	if w := Wrap("needs --rate and --duration", 20); w != "needs --rate and\n--duration" {
		t.Errorf("a flag was cut at its dashes: %q", w)
	}
	for _, want := range []string{"--out FILE", "--duration DURATION", "--connections N", "--headless  "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, b.String())
		}
	}
}

// FuzzParse: any arguments give positional arguments or a one-line error, never a panic.
func FuzzParse(f *testing.F) {
	f.Add("--rate\x00100/s\x00p.toml")
	f.Add("--duration\x005")
	f.Add("--headless=x\x00--")
	f.Add("---\x00-\x00--out")
	f.Fuzz(func(t *testing.T, joined string) {
		fs, _ := testFlags()
		_, err := Parse(fs, strings.Split(joined, "\x00"))
		if err != nil && !errors.Is(err, flag.ErrHelp) && strings.Contains(strings.TrimSpace(err.Error()), "\n") && !strings.ContainsAny(joined, "\n") {
			t.Fatalf("a flag error of several lines: %q", err)
		}
	})
}
