package profiles

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// Problem is one thing wrong with a profile: where it is, which field, what is wrong and how to
// fix it. Its Error text reads "file:line: field: message".
type Problem struct {
	// File is the profile's name as given to Load or LoadBytes.
	File string
	// Line is 1-based; the line of the offending key, or of its table when the key is missing.
	Line int
	// Field names the key, e.g. "stage[2].rate" (indices count from 1); empty for syntax errors.
	Field string
	// Msg says what is wrong and how to fix it.
	Msg string
	// Err is the underlying cause, if any (a toml.ParseError, an engine.ParseRate error …).
	Err error
}

// Error formats the problem as "file:line: field: message", on one line safe to show
// (safetext): a field or a message may quote the file.
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return safetext.Line(b.String())
}

// Unwrap returns the underlying cause.
func (p *Problem) Unwrap() error { return p.Err }

// Error is what Load returns for a profile that does not validate: every problem found, in file
// order, so one edit-run cycle fixes them all (k6 does the same).
type Error struct {
	File     string
	Problems []*Problem
}

// Error lists the problems, one per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap exposes every problem to errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	errs := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		errs[i] = p
	}
	return errs
}

// newError sorts problems into file order (stable, so problems on one line keep the order in
// which they were found), the profile's before those of the files it names, and drops exact
// duplicates.
func newError(file string, problems []*Problem) *Error {
	slices.SortStableFunc(problems, func(a, b *Problem) int {
		// The profile's own problems first, then those of files it names (a target file).
		if ao, bo := a.File != file, b.File != file; ao != bo {
			if ao {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	out := problems[:0]
	seen := make(map[string]bool, len(problems))
	for _, p := range problems {
		if s := p.Error(); !seen[s] {
			seen[s] = true
			out = append(out, p)
		}
	}
	return &Error{File: file, Problems: out}
}

// fieldError is a problem found away from the file (a ramp that cannot expand, an override);
// the caller knows the line and turns it into a Problem.
type fieldError struct {
	field string
	msg   string
}

func (e *fieldError) Error() string { return e.field + ": " + e.msg }
