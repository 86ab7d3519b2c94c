package engine

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/valyala/fastjson"
)

// ExpectKind is what an ExpectRule asks of the value at its path.
type ExpectKind uint8

// The kinds of rule. A JSON null counts as absent everywhere: a pruned node answers a block or
// a receipt it no longer has with "result": null, fast, and that must not pass for an answer.
const (
	ExpectPresent  ExpectKind = iota // there and not null
	ExpectAbsent                     // missing or null
	ExpectNonEmpty                   // there, not null, and not "", [] or {}
	ExpectEquals                     // there and equal to a string, number or boolean
	ExpectMatches                    // there, and its text matches a regular expression
)

// ExpectRule is one check of a JSON-RPC call's answer: a value at a path below the answer
// object (starting at "result") and what it must be. It is compiled when the profile loads and
// shared, read only, by every worker: checking it parses nothing and allocates nothing.
type ExpectRule struct {
	// Label names the rule in reports and snapshots: `result present`, `result.hash matches
	// "^0x"`. Invalid calls are counted by it.
	Label string
	Kind  ExpectKind
	path  []string // below the answer object; path[0] is "result"
	// equals: one of the three, by eqType
	eqType fastjson.Type
	eqStr  string
	eqNum  float64
	re     *regexp.Regexp
}

// Expect is the rules one call's answer must pass; a call that answers with a result that
// breaks one is invalid (a failed call, counted by the rule it broke first).
type Expect struct {
	Rules []*ExpectRule
}

// ParseExpectPath reads a path such as "result.transactions.0.hash" or
// "result.transactions[0].hash" into its keys. It must start at "result": the rest of an
// answer (jsonrpc, id, error) is checked by the classifier itself.
func ParseExpectPath(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New(`is empty: write the path of a value in the answer, e.g. "result.transactions"`)
	}
	var keys []string
	for _, part := range strings.Split(s, ".") {
		// a[0][1] → a, 0, 1
		key, rest, bracket := strings.Cut(part, "[")
		if key == "" && (len(keys) == 0 || !bracket) {
			return nil, fmt.Errorf("%q has an empty key: write keys joined by dots, e.g. \"result.transactions.0.hash\"", s)
		}
		if key != "" {
			keys = append(keys, key)
		}
		for bracket {
			idx, after, closed := strings.Cut(rest, "]")
			if _, err := strconv.ParseUint(idx, 10, 31); !closed || err != nil {
				return nil, fmt.Errorf("%q: [%s is not an array index: write [0], [1] …", s, strings.TrimSuffix(rest, "]"))
			}
			keys = append(keys, idx)
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("%q: %q follows an index: write the next key after a dot, e.g. [0].hash", s, after)
			}
			rest = after[1:]
		}
	}
	if keys[0] != "result" {
		return nil, fmt.Errorf("%q does not start at result: write the path from the answer's result, e.g. \"result.%s\"", s, strings.Join(keys, "."))
	}
	return keys, nil
}

// NewExpectRule makes a rule of kind on the value at path (see ParseExpectPath). want is the
// value of ExpectEquals (a string, an int64, a float64 or a bool, as TOML decodes them) and
// the regular expression of ExpectMatches; other kinds take nil.
func NewExpectRule(kind ExpectKind, path string, want any) (*ExpectRule, error) {
	keys, err := ParseExpectPath(path)
	if err != nil {
		return nil, err
	}
	r := &ExpectRule{Kind: kind, path: keys}
	p := strings.Join(keys, ".")
	switch kind {
	case ExpectPresent:
		r.Label = p + " present"
	case ExpectAbsent:
		r.Label = p + " absent"
	case ExpectNonEmpty:
		r.Label = p + " nonempty"
	case ExpectEquals:
		if err := r.setEquals(want); err != nil {
			return nil, err
		}
		r.Label = p + " equals " + r.wantText()
	case ExpectMatches:
		s, ok := want.(string)
		if !ok {
			return nil, fmt.Errorf("must be a regular expression in quotes, e.g. matches = \"^0x\"")
		}
		if r.re, err = regexp.Compile(s); err != nil {
			return nil, fmt.Errorf("%q is not a regular expression (%w): Go's syntax, e.g. \"^0x[0-9a-f]+$\"", s, err)
		}
		r.Label = p + " matches " + strconv.Quote(s)
	default:
		return nil, fmt.Errorf("unknown kind of rule %d", kind)
	}
	return r, nil
}

func (r *ExpectRule) setEquals(want any) error {
	switch w := want.(type) {
	case string:
		r.eqType, r.eqStr = fastjson.TypeString, w
	case int64:
		r.eqType, r.eqNum = fastjson.TypeNumber, float64(w)
	case float64:
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("%v is no JSON number: compare with a finite number, a string or true/false", w)
		}
		r.eqType, r.eqNum = fastjson.TypeNumber, w
	case bool:
		r.eqType = fastjson.TypeFalse
		if w {
			r.eqType = fastjson.TypeTrue
		}
	default:
		return fmt.Errorf("compares one value: a string, a number or true/false, e.g. equals = \"0x1\" (to check that a value is there, write present = true)")
	}
	return nil
}

// wantText is the value of an equals rule as JSON writes it.
func (r *ExpectRule) wantText() string {
	switch r.eqType {
	case fastjson.TypeString:
		return strconv.Quote(r.eqStr)
	case fastjson.TypeNumber:
		return strconv.FormatFloat(r.eqNum, 'g', -1, 64)
	case fastjson.TypeTrue:
		return "true"
	}
	return "false"
}

// Path is the rule's path as written in labels: "result.transactions".
func (r *ExpectRule) Path() string { return strings.Join(r.path, ".") }

// Check reports whether the answer object o passes the rule. scratch is reusable space for the
// text of a non-string value under ExpectMatches; Check returns it, grown, so a worker that
// keeps it allocates nothing once warm.
func (r *ExpectRule) Check(o *fastjson.Object, scratch []byte) (bool, []byte) {
	v := o.Get(r.path[0])
	if v != nil && len(r.path) > 1 {
		v = v.Get(r.path[1:]...)
	}
	absent := v == nil || v.Type() == fastjson.TypeNull
	switch r.Kind {
	case ExpectAbsent:
		return absent, scratch
	case ExpectPresent:
		return !absent, scratch
	}
	if absent {
		return false, scratch
	}
	switch r.Kind {
	case ExpectNonEmpty:
		return nonEmpty(v), scratch
	case ExpectEquals:
		return r.equals(v), scratch
	}
	// ExpectMatches: a string by its text, anything else by its JSON.
	if v.Type() == fastjson.TypeString {
		s, _ := v.StringBytes()
		return r.re.Match(s), scratch
	}
	scratch = v.MarshalTo(scratch[:0])
	return r.re.Match(scratch), scratch
}

// nonEmpty reports a value that holds something: not "", [] or {}. Numbers and booleans hold
// their value, so they pass.
func nonEmpty(v *fastjson.Value) bool {
	switch v.Type() {
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		return len(s) > 0
	case fastjson.TypeArray:
		a, _ := v.Array()
		return len(a) > 0
	case fastjson.TypeObject:
		o, _ := v.Object()
		return o.Len() > 0
	}
	return true
}

func (r *ExpectRule) equals(v *fastjson.Value) bool {
	if v.Type() != r.eqType {
		return false
	}
	switch r.eqType {
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		return string(s) == r.eqStr
	case fastjson.TypeNumber:
		f, err := v.Float64()
		return err == nil && f == r.eqNum
	}
	return true // true or false: the type is the value
}

// broken is the first rule of e that the answer object o breaks, or nil.
func (e *Expect) broken(o *fastjson.Object, scratch *[]byte) *ExpectRule {
	if e == nil {
		return nil
	}
	for _, r := range e.Rules {
		ok, s := r.Check(o, *scratch)
		*scratch = s
		if !ok {
			return r
		}
	}
	return nil
}
