package profiles

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDescribeFitsWithHyphens: validate's text stays within 80 cells whatever lands at a line's
// edge. x/ansi's Wrap keeps a word that ends in a hyphen ("[-]", "--") on its line one cell past
// the width; a body, an expect rule or an ignore path with one, padded so the hyphen meets the
// edge at every offset, must still fit.
func TestDescribeFitsWithHyphens(t *testing.T) {
	for pad := 0; pad < 80; pad++ {
		word := strings.Repeat("a", pad) + " [-] b --c"
		src := fmt.Sprintf(`url = "http://h"
[[request]]
name = "q"
body = '{"jsonrpc":"2.0","id":1,"method":"m","params":["%[1]s"]}'
expect = {path = "result", matches = "%[1]s"}
[[stage]]
rate = "1/s"
duration = "1s"
`, word)
		var out bytes.Buffer
		mustLoad(t, src).Describe(&out)
		for _, l := range strings.Split(out.String(), "\n") {
			if w := ansi.StringWidth(l); w > 80 {
				t.Fatalf("pad %d: a line of %d cells:\n%s", pad, w, l)
			}
		}
	}
}
