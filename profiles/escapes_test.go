package profiles

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/internal/termcheck"
)

// hostileTOML is text with an OSC title change ended by BEL, a screen clear, a right-to-left
// override and a one-byte CSI, written with TOML's escapes. (NUL is refused in names and
// header values, where it would break file names or requests.)
const hostileTOML = `bad\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b`

// validate shows a profile's name, request names, methods, bodies, headers and stage names
// escaped, and still in columns.
func TestDescribeEscapesHostileText(t *testing.T) {
	src := fmt.Sprintf(`name = "p%[1]s"
url = "http://127.0.0.1:1/"
[headers]
X-Note = "h%[1]s"
[[request]]
name = "q%[1]s"
method = "m%[1]s"
[[request]]
body = "{\"x\":\"%[1]s\"}"
[[stage]]
name = "s%[1]s"
rate = 1
duration = "1s"
`, hostileTOML)
	p := mustLoad(t, src)
	out := described(p)
	if bad := termcheck.Obeyed(out, false); bad != "" {
		t.Errorf("%s in validate's output", bad)
	}
	shown := `bad\x1b]0;pwned\x07\x1b[2J\u202eevil\u009b`
	for _, want := range []string{"p" + shown, "q" + shown, "h" + shown, "s" + shown, `{"x":"bad\x1b]0;pw`} {
		if !strings.Contains(out, want) {
			t.Errorf("validate does not show %s:\n%s", want, out)
		}
	}
}

// A problem that quotes a key from the file shows it escaped.
func TestProblemEscapesHostileText(t *testing.T) {
	e := loadErr(t, fmt.Sprintf("url = \"http://127.0.0.1:1/\"\n\"k%s\" = 1\n[[request]]\nmethod = \"m\"\n", hostileTOML), nil)
	if bad := termcheck.Obeyed(e.Error(), false); bad != "" || !strings.Contains(e.Error(), `kbad\x1b]0;pwned`) {
		t.Errorf("got %s in %q, want it shown escaped", bad, e.Error())
	}
}
