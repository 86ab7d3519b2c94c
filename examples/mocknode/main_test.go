package mocknode

import (
	"bufio"
	"context"
	"go/build"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestDidYouMean: the typos an unknown flag is answered with a suggestion for, and the names
// too short or too far from any flag to guess from.
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

// TestMainFlagErrors: every mistake on the command line exits 2 with one line on standard error
// that names the flag as typed and says what would be right (the node parses its own flags,
// so these are its own words); a node that cannot listen exits 1.
func TestMainFlagErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		// A rate that parseRate refuses.
		{"bad rate", []string{"--rate", "fast"}, 2, "bad rate"},
		// A rate unit nobody uses.
		{"bad rate unit", []string{"--rate", "10/d"}, 2, "unknown unit"},
		// Negative burst.
		{"negative burst", []string{"--rate", "10/s", "--burst", "-1"}, 2, "burst -1 is negative"},
		// A burst without a rate would silently do nothing.
		{"burst without rate", []string{"--burst", "5"}, 2, "needs a rate"},
		// nodelay without a rate likewise.
		{"nodelay without rate", []string{"--nodelay"}, 2, "nodelay needs a rate"},
		// A success status for rejections makes no sense.
		{"status 200", []string{"--rate", "1/s", "--status", "200"}, 2, "not an HTTP error status"},
		// Durations must parse.
		{"bad latency", []string{"--latency", "soon"}, 2, "--latency soon: not a duration"},
		// A duration without its unit says which units there are.
		{"latency without unit", []string{"--latency", "5"}, 2, "--latency 5: needs a unit: 5s, 5m"},
		// Negative latency.
		{"negative latency", []string{"--latency", "-1ms"}, 2, "latency -1ms is negative"},
		// Capacity is a rate.
		{"bad capacity", []string{"--capacity", "-5/s"}, 2, "negative"},
		// Stalls need both flags.
		{"half a stall", []string{"--stall-every", "1s"}, 2, "set both or neither"},
		// A stall as long as its period never ends.
		{"endless stall", []string{"--stall-every", "1s", "--stall-for", "1s"}, 2, "must be shorter"},
		// Unknown flags, and a hint for a typo.
		{"unknown flag", []string{"--nope"}, 2, "unknown flag --nope"},
		{"typo", []string{"--brust", "5"}, 2, "unknown flag --brust: did you mean --burst?"},
		// A flag at the end without its value names the value it wants.
		{"missing value", []string{"--rate"}, 2, "--rate needs a value: --rate RATE"},
		{"missing duration", []string{"--stall-for"}, 2, "--stall-for needs a value: --stall-for DURATION"},
		// A switch given a value that is not a truth value.
		{"bad switch", []string{"--nodelay=maybe"}, 2, "--nodelay=maybe: a switch takes true or false"},
		// Whole numbers, and ones too large for them.
		{"bad burst", []string{"--burst", "x"}, 2, "--burst x: not a whole number, e.g. 64"},
		{"huge burst", []string{"--burst", "99999999999999999999"}, 2, "--burst 99999999999999999999: too large"},
		// Three dashes is no flag at all.
		{"bad syntax", []string{"---x"}, 2, "---x: write a flag as --name or --name=value"},
		// Every flag error ends with where to find the flags.
		{"help hint", []string{"--nope"}, 2, "\nrpcstress mocknode --help for the flags\n"},
		// Settings are flags, not arguments.
		{"positional", []string{"getBalance"}, 2, "unexpected argument"},
		// Help is not an error; it goes to standard output (see TestMainHelp).
		{"help", []string{"-h"}, 0, ""},
		// An address that cannot be listened on fails with 1, not 2.
		{"cannot listen", []string{"--listen", "256.0.0.1:1"}, 1, "cannot listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := Main(t.Context(), tt.args, &stdout, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d with %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

// TestMainHelp: --help prints the usage and every flag on standard output, within 80 columns.
func TestMainHelp(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := Main(t.Context(), []string{"--help"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"usage: rpcstress mocknode", "--listen ADDRESS", "--stall-for DURATION", "--nodelay"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
}

// TestMainServesUntilCancelled: Main says where it listens and how it behaves, serves, and
// when its context is cancelled stops with exit 0 and its final counts. Its standard output is
// read line by line through a pipe as it writes, so the test waits for lines, not for time.
func TestMainServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out, w := io.Pipe()
	var stderr strings.Builder // read only once Main has returned
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"--listen", "127.0.0.1:0", "--rate", "240r/m", "--burst", "3", "--nodelay", "--latency", "1ms"}, w, &stderr)
		_ = w.Close()
	}()
	t.Cleanup(func() { _ = out.Close() }) // a test that failed early leaves no writer blocked
	lines := make(chan string, 2)         // Main writes two lines
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(out); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	next := func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if ok {
				return l
			}
			t.Fatalf("Main wrote nothing more and exited %d, stderr %q", <-done, stderr.String())
		case <-time.After(5 * time.Second):
			t.Fatal("Main wrote nothing for 5 s")
		}
		return ""
	}

	first := next()
	m := regexp.MustCompile(`listening on http://(\S+) \((.*)\)`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("the first line %q does not say where Main listens", first)
	}
	if want := "limit 4/s burst 3 nodelay, rejects with 429; latency 1ms; capacity unlimited"; m[2] != want {
		t.Fatalf("settings %q, want %q", m[2], want)
	}
	c := &fasthttp.HostClient{Addr: m[1]}
	if code, _ := do(t, c, "POST", "/", getSlot); code != 200 {
		t.Fatalf("status %d", code)
	}
	cancel()
	if last := next(); !strings.HasPrefix(last, `mocknode stopped: {"status":{"200":1}`) {
		t.Fatalf("no final counts in %q", last)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Main did not return after cancel")
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
