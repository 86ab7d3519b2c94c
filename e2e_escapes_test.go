package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/rpcstress/rpcstress/internal/termcheck"
)

// hostileTOML is an OSC title change ended by BEL, a screen clear and a right-to-left
// override, as TOML escapes (a name may not hold NUL: it is refused at load).
const hostileTOML = `\u001b]0;pwned\u0007\u001b[2J\u202e`

// A target whose JSON-RPC errors carry escape sequences, BEL, NUL and U+202E, and a profile
// whose name, request name and stage name carry them: nothing a terminal would obey reaches
// the output of the run, validate, report (text, CSV, HTML, JSON), compare or an error; the
// text shows escaped; the snapshot keeps the target's message as sent.
func TestE2EEscapesNeverReachTheTerminal(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Escapes})
	dir := t.TempDir()
	profile := fmt.Sprintf("name = \"e2e%[1]s\"\nurl = %[2]q\n[[request]]\nname = \"q%[1]s\"\nmethod = \"getSlot\"\n"+
		"[[request]]\nmethod = \"getBalance\"\n[[stage]]\nname = \"s%[1]s\"\nrate = \"20/s\"\nduration = \"1s\"\n", hostileTOML, srv.URL)
	p := writeFile(t, dir, "p.toml", profile)
	check := func(t *testing.T, what, out string, want ...string) {
		t.Helper()
		if bad := termcheck.Obeyed(out, false); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s does not show %s:\n%s", what, w, out)
			}
		}
	}
	message := `bad\x1b]0;pwned\x07\x1b[2J\x00\u202eevil` // hostile.EscapeMessage, escaped

	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	check(t, "the headless run", r.stdout+r.stderr, message, `rpcstress e2e\x1b]0;pwned\x07\x1b[2J\u202e`)
	if got := r.snap.RPCMessages["-32000"]; got != hostile.EscapeMessage {
		t.Errorf("the snapshot keeps %q, want the message as sent, %q", got, hostile.EscapeMessage)
	}
	file := r.out

	for _, format := range []string{"text", "csv", "html", "json"} {
		t.Run("report "+format, func(t *testing.T) {
			r := runVerb(t, "report", "--format", format, file)
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var want []string
			if format == "text" || format == "html" {
				want = append(want, message)
			}
			check(t, "report --format "+format, r.stdout+r.stderr, want...)
		})
	}
	t.Run("compare", func(t *testing.T) {
		r := runVerb(t, "compare", file, file)
		if r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		check(t, "compare", r.stdout+r.stderr, `e2e\x1b]0;pwned`)
	})
	t.Run("validate", func(t *testing.T) {
		v := runCLI(t, nil, "validate", p)
		if v.code != exitOK {
			t.Fatalf("exit %d: %s", v.code, v.stderr)
		}
		check(t, "validate", v.stdout+v.stderr, `q\x1b]0;pwned`, `s\x1b]0;pwned`)
	})
	t.Run("a profile error", func(t *testing.T) {
		bad := writeFile(t, dir, "bad.toml", strings.Replace(profile, "[[request]]", "\"k"+hostileTOML+"\" = 1\n[[request]]", 1))
		v := runCLI(t, nil, "validate", bad)
		if v.code != exitUsage {
			t.Fatalf("exit %d, want %d: %s", v.code, exitUsage, v.stderr)
		}
		check(t, "the error", v.stdout+v.stderr, `k\x1b]0;pwned`)
	})
}
