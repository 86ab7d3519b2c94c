package profiles

import (
	"fmt"
	"maps"
	"slices"
)

// maxDepth is how deeply a profile may nest arrays and tables, counted from the top of the
// file: [[request]] is 2 (the list and its table), its params 3, each array or table inside
// them one more. Real JSON-RPC params are a few levels deep. The limit exists because every
// walk over a nested value recurses (the TOML parser, the template compiler, encoding/json):
// a 2 MB file of a million nested arrays overflowed the Go stack, and the TOML parser takes
// time quadratic in the nesting of inline tables and dotted keys (4,000 levels: 2 s). Bodies
// that must nest deeper are written as body = '…' or body_file, sent as they are.
const maxDepth = 64

// nesting is where a file first goes deeper than maxDepth: the line and field of the key
// whose value (or table) does.
type nesting struct {
	line  int
	field string
}

// checkDepth reports whether depth is beyond maxDepth. The first time, it records where and
// ends the scan: the file will not be parsed, and the rest of it could be as deep.
func (s *lineScanner) checkDepth(depth, line int, field string) bool {
	if depth <= maxDepth {
		return false
	}
	if s.deep == nil {
		s.deep = &nesting{line: line, field: clip(field, maxFieldRunes)}
	}
	s.i = len(s.src)
	return true
}

// maxFieldRunes is as much of a field path as a nesting problem shows: a path that deep is
// mostly repetition, and its start says where it is.
const maxFieldRunes = 60

// problem reports the nesting of file.
func (n *nesting) problem(file string) *Problem {
	return &Problem{File: file, Line: n.line, Field: n.field, Msg: tooDeepMsg()}
}

// tooDeepMsg says what is wrong with a value nested too deeply and how to fix it.
func tooDeepMsg() string {
	return fmt.Sprintf("nested deeper than %d levels: flatten it, or send it as written "+
		"with body = '…' or body_file = \"…\"", maxDepth)
}

// shape reports whether v, a decoded TOML value depth levels down, holds a template call in
// any string, and whether it nests deeper than maxDepth. It never looks below maxDepth, so it
// is safe on any value, and a value it passes is safe for every other walk (encodeJSON).
func shape(v any, depth int) (templated, tooDeep bool) {
	if depth > maxDepth {
		return false, true
	}
	var elems []any
	switch x := v.(type) {
	case string:
		return hasTemplate(x), false
	case []any:
		elems = x
	case []table:
		elems = tablesAsAny(x)
	case table:
		elems = slices.Collect(maps.Values(x))
	}
	for _, e := range elems {
		t, deep := shape(e, depth+1)
		if deep {
			return false, true // a template found early must not hide a deeper branch
		}
		templated = templated || t
	}
	return templated, false
}
