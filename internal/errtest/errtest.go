// Package errtest checks an error against what a row of a table test wants of it: no error,
// or one whose message says a given thing. Test support only: one wording for every table
// that mixes accepted and refused input, instead of the same switch in each.
package errtest

import (
	"fmt"
	"strings"
)

// Mismatch says how err misses want, or "" when it meets it: want "" asks for no error, any
// other text for an error whose message contains it.
func Mismatch(err error, want string) string {
	switch {
	case want == "" && err != nil:
		return fmt.Sprintf("error %v, want none", err)
	case want != "" && err == nil:
		return fmt.Sprintf("no error, want one saying %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		return fmt.Sprintf("error %v, want one saying %q", err, want)
	}
	return ""
}
