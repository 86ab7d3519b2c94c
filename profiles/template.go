package profiles

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Templates are {{…}} calls inside the string values of params and inside a raw body:
// {{randInt 1 100}}, {{seq}}, {{pick "a" "b"}}, {{line "accounts.txt"}} … (see templateFuncs).
// They are compiled once, when the profile loads, into a bodyTemplate: a list of literal byte
// runs and generators. Sending a request only appends the literals and lets each generator
// append its value; nothing is parsed or interpreted per request, and nothing is allocated once
// the sender's buffer has grown to fit.

// maxTemplateCalls bounds the calls in one string, so a fuzzed or mistyped profile cannot make
// the loader build millions of generators.
const maxTemplateCalls = 10_000

// generator appends one generated value. It is shared by every worker: per-send randomness
// comes from rng (the worker's own), shared state (sequences) is atomic.
type generator interface {
	append(dst []byte, rng *rand.Rand) []byte
	// maxLen bounds what append adds, so a body's size is known before it is rendered.
	maxLen() int
}

// resetter is a generator with state (a sequence) that the sample rendering must not advance.
type resetter interface{ reset() }

// part is a literal run of bytes, or a generator when gen is set.
type part struct {
	lit []byte
	gen generator
}

// bodyTemplate is a compiled body: it implements engine.Template.
type bodyTemplate struct {
	parts []part
}

// Append writes one rendering of the body to dst.
func (t *bodyTemplate) Append(dst []byte, rng *rand.Rand) []byte {
	for i := range t.parts {
		if p := &t.parts[i]; p.gen != nil {
			dst = p.gen.append(dst, rng)
		} else {
			dst = append(dst, p.lit...)
		}
	}
	return dst
}

// maxLen bounds the size of one rendering.
func (t *bodyTemplate) maxLen() int {
	n := 0
	for _, p := range t.parts {
		if p.gen != nil {
			n += p.gen.maxLen()
		} else {
			n += len(p.lit)
		}
		if n < 0 || n > 1<<40 {
			return 1 << 40
		}
	}
	return n
}

// reset puts every sequence back to its start (after the sample rendering).
func (t *bodyTemplate) reset() {
	for _, p := range t.parts {
		if r, ok := p.gen.(resetter); ok {
			r.reset()
		}
	}
}

// hasGenerators reports whether the body changes between sends.
func (t *bodyTemplate) hasGenerators() bool {
	for _, p := range t.parts {
		if p.gen != nil {
			return true
		}
	}
	return false
}

// templateBuilder collects literals and generators, merging adjacent literals.
type templateBuilder struct {
	parts []part
}

func (b *templateBuilder) literal(s []byte) {
	if len(s) == 0 {
		return
	}
	if n := len(b.parts); n > 0 && b.parts[n-1].gen == nil {
		b.parts[n-1].lit = append(b.parts[n-1].lit, s...)
		return
	}
	b.parts = append(b.parts, part{lit: append([]byte(nil), s...)})
}

func (b *templateBuilder) literalString(s string) { b.literal([]byte(s)) }

func (b *templateBuilder) generator(g generator) { b.parts = append(b.parts, part{gen: g}) }

// append adds another builder's parts (a batch repeats one call's parts).
func (b *templateBuilder) append(o *templateBuilder) {
	for _, p := range o.parts {
		if p.gen != nil {
			b.generator(p.gen)
		} else {
			b.literal(p.lit)
		}
	}
}

func (b *templateBuilder) build() *bodyTemplate { return &bodyTemplate{parts: b.parts} }

// escaping says how generated text is written: as is (a raw body), or escaped for the inside
// of a JSON string (a params string value).
type escaping int

const (
	escapeRaw escaping = iota
	escapeJSON
)

// templateError is a bad template: the call (or the text near the problem) and what to do.
type templateError struct {
	call string
	msg  string
}

func (e *templateError) Error() string {
	if e.call == "" {
		return e.msg
	}
	return clip(strconv.Quote(e.call), 60) + ": " + e.msg
}

// hasTemplate reports whether s contains a template call (or a stray "{{" that is an error).
func hasTemplate(s string) bool { return strings.Contains(s, "{{") }

// call is one parsed {{…}} call: the function's name and its arguments.
type call struct {
	text string // the whole call with braces, for messages
	name string // "" for a bare string literal, {{"{{"}}
	args []arg
}

// argKind is what a token inside a call is.
type argKind int

const (
	argWord argKind = iota // a function name
	argInt
	argString
)

// arg is one token of a call: a function name, an integer or a quoted string.
type arg struct {
	kind argKind
	str  string
	num  int64
}

// segment is a piece of a template string: literal text, or a call.
type segment struct {
	text string
	call *call
}

// parseTemplate splits s into literal text and calls. A literal "{{" is written {{"{{"}}.
func parseTemplate(s string) ([]segment, error) {
	var segs []segment
	calls := 0
	for len(s) > 0 {
		i := strings.Index(s, "{{")
		if i < 0 {
			segs = append(segs, segment{text: s})
			break
		}
		if i > 0 {
			segs = append(segs, segment{text: s[:i]})
		}
		c, rest, err := parseCall(s[i:])
		if err != nil {
			return nil, err
		}
		if calls++; calls > maxTemplateCalls {
			return nil, &templateError{msg: fmt.Sprintf("more than %d template calls in one string: use fewer, or a batch", maxTemplateCalls)}
		}
		if c.name == "" { // a quoted string: literal text
			segs = append(segs, segment{text: c.args[0].str})
		} else {
			segs = append(segs, segment{call: c})
		}
		s = rest
	}
	return segs, nil
}

// parseCall reads one {{name arg …}} at the start of s and returns it and the text after it.
func parseCall(s string) (*call, string, error) {
	var toks []arg
	i := 2 // past "{{"
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return nil, "", &templateError{call: clip(s, 40), msg: `"{{" is not closed: end the call with }} (write {{"{{"}} for a literal {{)`}
		}
		if strings.HasPrefix(s[i:], "}}") {
			i += 2
			break
		}
		tok, n, err := readToken(s[i:])
		if err != nil {
			if n < 0 {
				return nil, "", &templateError{call: clip(s, 40), msg: `a quoted string in the call is not closed: end it with its quote, then the call with }}`}
			}
			return nil, "", &templateError{call: clip(s[:i+n], 60), msg: err.Error()}
		}
		if len(toks) > maxTemplateCalls {
			return nil, "", &templateError{call: clip(s, 40), msg: fmt.Sprintf("more than %d arguments", maxTemplateCalls)}
		}
		toks = append(toks, tok)
		i += n
	}
	c := &call{text: s[:i]}
	switch {
	case len(toks) == 0:
		return nil, "", &templateError{call: c.text, msg: "is empty: write a call such as {{randInt 1 100}}"}
	case toks[0].kind == argString && len(toks) == 1:
		c.args = toks // {{"{{"}}: literal text
		return c, s[i:], nil
	case toks[0].kind != argWord:
		return nil, "", &templateError{call: c.text, msg: "a call starts with a function name, e.g. {{randInt 1 100}} (a quoted string alone, {{\"{{\"}}, is literal text)"}
	}
	// A word among the arguments is an error for most functions, but a function that formats
	// another call's value takes that call as its arguments ({{hex randInt 1 9}}): only the
	// compiler, which knows the functions, can tell (see checkArgs).
	c.name, c.args = toks[0].str, toks[1:]
	return c, s[i:], nil
}

// checkArgs refuses a word among the arguments of a function that takes no nested call.
func checkArgs(c *call) error {
	for _, a := range c.args {
		if a.kind == argWord {
			return &templateError{call: c.text, msg: fmt.Sprintf("%s: arguments are whole numbers or quoted strings (quote file names: \"accounts.txt\")", a.str)}
		}
	}
	return nil
}

// readToken reads one word, integer or quoted string at the start of s (which is not blank)
// and returns its length. n < 0 with an error means a string ran off the end of s.
func readToken(s string) (arg, int, error) {
	switch c := s[0]; {
	case c == '"' || c == '`':
		end := 1
		for end < len(s) && s[end] != c {
			if c == '"' && s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return arg{}, -1, fmt.Errorf("unterminated string")
		}
		u, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return arg{}, end + 1, fmt.Errorf("the string %s is not valid: write it like \"text\" with Go escapes (\\\" for a quote)", s[:end+1])
		}
		return arg{kind: argString, str: u}, end + 1, nil
	case c == '-' || c >= '0' && c <= '9':
		end := 1
		for end < len(s) && isTokenByte(s[end]) {
			end++
		}
		n, err := strconv.ParseInt(s[:end], 10, 64)
		if err != nil {
			return arg{}, end, fmt.Errorf("%q is not a whole number from %d to %d", s[:end], int64(-1<<63), int64(1<<63-1))
		}
		return arg{kind: argInt, num: n}, end, nil
	case isTokenByte(c):
		end := 1
		for end < len(s) && isTokenByte(s[end]) {
			end++
		}
		return arg{kind: argWord, str: s[:end]}, end, nil
	}
	return arg{}, 1, fmt.Errorf("unexpected %q: arguments are whole numbers or quoted strings", s[:1])
}

// isTokenByte is a byte of a function name or a number.
func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '+'
}
