package profiles

import (
	"strconv"
	"strings"
)

// lineIndex maps a field path ("url", "stage[2].rate", "headers.Authorization") to the line
// where it is written.
//
// Why not toml.MetaData: v1.6.0 keeps key positions private, and it keys them without the
// element index of an array of tables (every [[stage]]'s rate is "stage.rate"), so an error
// could not point at the right stage. The file has already parsed when this runs, so a scanner
// that knows only headers, keys, strings, brackets and comments is enough.
type lineIndex map[string]int

// line returns the line of field, else of its nearest enclosing table or array element, else 1
// (the top-level table starts the file).
func (ix lineIndex) line(field string) int {
	for f := field; f != ""; {
		if n, ok := ix[f]; ok {
			return n
		}
		cut := strings.LastIndexAny(f, ".[")
		if cut < 0 {
			break
		}
		f = f[:cut]
	}
	return 1
}

// indexLines scans src for the lines of headers, keys, array elements and the keys of inline
// tables. Indices of arrays count from 1. It runs before the TOML parser, on any input,
// because it also measures how deeply the file nests (see nesting): it stops at the first
// place nested deeper than maxDepth and returns it; the index is then incomplete, and the file
// must not be parsed.
func indexLines(src string) (lineIndex, *nesting) {
	s := lineScanner{src: strings.TrimPrefix(src, "\ufeff"), line: 1, ix: lineIndex{}, count: map[string]int{}}
	for s.i < len(s.src) {
		switch c := s.src[s.i]; c {
		case '\n':
			s.line++
			s.i++
		case ' ', '\t', '\r':
			s.i++
		case '#':
			s.skipComment()
		case '[':
			s.header()
		default:
			s.keyValue()
		}
	}
	return s.ix, s.deep
}

// lineScanner is the state of indexLines. Every step advances i, so any input terminates.
type lineScanner struct {
	src   string
	i     int
	line  int
	table string         // indexed path of the current table; "" at the top level
	depth int            // how deep the current table is (see nesting)
	ix    lineIndex      // the result
	count map[string]int // elements seen per array-of-tables path
	deep  *nesting       // the first place nested deeper than maxDepth, if any
}

// mark records the first line a path appears on.
func (s *lineScanner) mark(path string, line int) {
	if _, ok := s.ix[path]; !ok {
		s.ix[path] = line
	}
}

// header reads [a.b] or [[a.b]] and makes it the current table.
func (s *lineScanner) header() {
	line := s.line
	array := strings.HasPrefix(s.src[s.i:], "[[")
	s.i++
	if array {
		s.i++
	}
	parts := s.keyParts()
	path, depth := "", 0
	for k, p := range parts {
		path = joinPath(path, p)
		depth++
		switch n := s.count[path]; {
		case array && k == len(parts)-1:
			s.count[path] = n + 1
			s.mark(path, line)
			path += "[" + strconv.Itoa(n+1) + "]"
			depth++ // the element, a table inside the array
		case n > 0: // [request.params] after [[request]] belongs to the last request
			path += "[" + strconv.Itoa(n) + "]"
			depth++
		}
		// Checked part by part: a header of a million parts must not be indexed first.
		if s.checkDepth(depth, line, path) {
			return
		}
		s.mark(path, line)
	}
	s.table, s.depth = path, depth
	s.skipComment() // the closing brackets and any comment: nothing else may follow a header
}

// keyValue reads key = value, recording the key (and, for dotted keys, each prefix), and
// inside the value the elements of arrays and the keys of inline tables.
func (s *lineScanner) keyValue() {
	line, start := s.line, s.i
	path, depth := s.table, s.depth
	parts := s.keyParts()
	for k, p := range parts {
		path = joinPath(path, p)
		s.mark(path, line)
		// a.b.c = … makes tables a and b: the value sits as deep as the last part.
		if k < len(parts)-1 {
			if depth++; s.checkDepth(depth, line, path) {
				return
			}
		}
	}
	if s.skip('=') {
		s.skipBlanks()
		s.value(path, depth, nesting{line: line, field: path})
	}
	if s.i == start { // not a key: step over the byte so the scan always moves on
		s.i++
	}
}

// keyParts reads a dotted key (bare, "basic" or 'literal' parts) up to '=' or ']'.
func (s *lineScanner) keyParts() []string {
	var parts []string
	for s.i < len(s.src) {
		s.skipBlanks()
		if s.i >= len(s.src) {
			break
		}
		var part string
		switch s.src[s.i] {
		case '"':
			start := s.i
			s.skipString('"', true)
			raw := s.src[start:s.i]
			if u, err := strconv.Unquote(raw); err == nil {
				part = u
			} else {
				part = strings.Trim(raw, `"`)
			}
		case '\'':
			start := s.i
			s.skipString('\'', false)
			part = strings.Trim(s.src[start:s.i], "'")
		default:
			start := s.i
			for s.i < len(s.src) && isBareKeyByte(s.src[s.i]) {
				s.i++
			}
			part = s.src[start:s.i]
		}
		parts = append(parts, part)
		s.skipBlanks()
		if s.i >= len(s.src) || s.src[s.i] != '.' {
			break
		}
		s.i++ // the dot
	}
	return parts
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func (s *lineScanner) skipBlanks() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

// skipComment moves to the end of the line, leaving the newline for the caller to count.
func (s *lineScanner) skipComment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.i++
	}
}

// value moves past the value at s.i, which may span lines inside brackets or multi-line
// strings. It marks the line where each element of an array starts (path[1], path[2] …,
// counting from 1 like the checker's fields) and each key of an inline table (path.key), at
// any depth, so that a mistake in the third element of a multi-line params = [...] is
// reported at that element's line, not at the line of params.
//
// depth is how deep path is; every array or inline table the value opens, and every dotted
// key inside an inline table, goes one level deeper. key is the key = value the value belongs
// to, where a value nested too deeply is reported (checkDepth): the recursion over arrays and
// inline tables stops there, so it is never deeper than maxDepth, whatever the input.
func (s *lineScanner) value(path string, depth int, key nesting) {
	if s.i >= len(s.src) {
		return
	}
	switch rest := s.src[s.i:]; {
	case rest[0] == '[' || rest[0] == '{':
		if s.checkDepth(depth+1, key.line, key.field) {
			return
		}
		if rest[0] == '[' {
			s.array(path, depth+1, key)
		} else {
			s.inlineTable(path, depth+1, key)
		}
	case strings.HasPrefix(rest, `"""`):
		s.skipMultiline(`"""`, true)
	case strings.HasPrefix(rest, `'''`):
		s.skipMultiline(`'''`, false)
	case rest[0] == '"':
		s.skipString('"', true)
	case rest[0] == '\'':
		s.skipString('\'', false)
	default: // a number, boolean or date: up to what ends a value
		start := s.i
		for s.i < len(s.src) && !strings.ContainsRune(",]}\n#", rune(s.src[s.i])) {
			s.i++
		}
		if s.i == start {
			s.i++ // a stray delimiter: step over it so the scan moves on
		}
	}
}

// array reads [v, v, …] at depth, marking each element.
func (s *lineScanner) array(path string, depth int, key nesting) {
	s.i++ // [
	for n := 1; !s.closes(']'); n++ {
		elem := path + "[" + strconv.Itoa(n) + "]"
		s.mark(elem, s.line)
		s.value(elem, depth, key)
		s.skipSpace()
		s.skip(',')
	}
}

// inlineTable reads {k = v, …} at depth, marking each key. {a.b.c = 1} nests like
// {a = {b = {c = 1}}}: its value is two levels deeper.
func (s *lineScanner) inlineTable(path string, depth int, key nesting) {
	s.i++ // {
	for !s.closes('}') {
		start, line := s.i, s.line
		parts := s.keyParts()
		d := depth + max(len(parts)-1, 0)
		// Checked before the parts are joined: a key of a million parts must not be.
		if s.checkDepth(d, key.line, key.field) {
			return
		}
		k := path
		for _, p := range parts {
			k = joinPath(k, p)
			s.mark(k, line)
		}
		s.skipBlanks()
		if s.skip('=') {
			s.skipSpace()
			s.value(k, d, key)
		}
		s.skipSpace()
		s.skip(',')
		if s.i == start {
			s.i++ // not a key: step over the byte so the scan always moves on
		}
	}
}

// closes moves to the next element of an array or inline table and reports whether the list
// is over: the source ended, or end (stepped over) closes it.
func (s *lineScanner) closes(end byte) bool {
	s.skipSpace()
	return s.i >= len(s.src) || s.skip(end)
}

// skip steps over c when it is the next byte, and reports whether it was.
func (s *lineScanner) skip(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}

// skipSpace moves past blanks, line ends (counting them) and comments, as may stand between
// the elements of an array.
func (s *lineScanner) skipSpace() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\r':
			s.i++
		case '\n':
			s.line++
			s.i++
		case '#':
			s.skipComment()
		default:
			return
		}
	}
}

// skipString moves past a one-line string starting at s.i.
func (s *lineScanner) skipString(quote byte, escapes bool) {
	s.i++
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		c := s.src[s.i]
		if escapes && c == '\\' && s.i+1 < len(s.src) && s.src[s.i+1] != '\n' {
			s.i += 2
			continue
		}
		s.i++
		if c == quote {
			return
		}
	}
}

// skipMultiline moves past a multi-line string (delim is three double or three single
// quotes), counting its lines. Up to two quotes may directly precede the closing delimiter.
func (s *lineScanner) skipMultiline(delim string, escapes bool) {
	s.i += len(delim)
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n':
			s.line++
			s.i++
		case escapes && c == '\\':
			s.i++
			if s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		case strings.HasPrefix(s.src[s.i:], delim):
			s.i += len(delim)
			for extra := 0; extra < 2 && s.i < len(s.src) && s.src[s.i] == delim[0]; extra++ {
				s.i++
			}
			return
		default:
			s.i++
		}
	}
}

// joinPath appends a key to a path with a dot.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
