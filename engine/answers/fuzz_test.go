package answers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// reformat writes the JSON value v again another way: members in reverse order, white space
// between everything, every number with an exponent, every string with other escapes (all
// non-ASCII as \u, "/" as "\/"). ok is false for an object with a repeated key (its members'
// order is then part of what it says).
func reformat(dst []byte, v *fastjson.Value) (out []byte, ok bool) {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		type kv struct {
			k string
			v *fastjson.Value
		}
		var members []kv
		seen, repeated := map[string]bool{}, false
		o.Visit(func(k []byte, v *fastjson.Value) {
			repeated = repeated || seen[string(k)]
			seen[string(k)] = true
			members = append(members, kv{string(k), v})
		})
		if repeated {
			return dst, false
		}
		dst = append(dst, "{\n"...)
		for i := len(members) - 1; i >= 0; i-- {
			dst = appendEscaped(append(dst, "  "...), members[i].k)
			dst = append(dst, " : "...)
			if dst, ok = reformat(dst, members[i].v); !ok {
				return dst, false
			}
			if i > 0 {
				dst = append(dst, " ,\n"...)
			}
		}
		return append(dst, "\n}"...), true
	case fastjson.TypeArray:
		arr, _ := v.Array()
		dst = append(dst, "[ "...)
		for i, it := range arr {
			if i > 0 {
				dst = append(dst, " ,\t"...)
			}
			if dst, ok = reformat(dst, it); !ok {
				return dst, false
			}
		}
		return append(dst, " ]"...), true
	case fastjson.TypeString:
		return appendEscaped(dst, string(v.GetStringBytes())), true
	case fastjson.TypeNumber:
		s := v.String()
		if !strings.ContainsAny(s, "eE") {
			s += "e0"
		}
		return append(dst, s...), true
	}
	return append(dst, v.String()...), true // true, false, null
}

// appendEscaped writes s as a JSON string, escaping more than it must.
func appendEscaped(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, s[i]) // a byte that is no UTF-8 stays as it was
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '/':
			dst = append(dst, `\/`...)
		case r < 0x20 || r >= 0x7f:
			if r > 0xffff {
				r -= 0x10000
				dst = fmt.Appendf(dst, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				dst = fmt.Appendf(dst, `\u%04X`, r)
			}
		default:
			dst = append(dst, byte(r))
		}
		i += n
	}
	return append(dst, '"')
}

// FuzzCanonical: any bytes are compared without a panic, as an answer and as an example's
// diff; a valid JSON answer written again another way (reformat) writes the same key, with
// and without NumbersByValue and ignore paths, and the Comparer counts the two a match.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		string(blockAnswer(1, 5, 1700000000)), okOne, badArgs,
		`[{"jsonrpc":"2.0","id":2,"result":"b"},{"jsonrpc":"2.0","id":1,"result":{"a":[1,2.5e3,-0]}}]`,
		`{"result":"A\u00e9\n\ud83d\ude00\/"}`, `{"a":{"a":1},"a":2}`, `{"result":[NaN,+1]}`,
		`{"result":1e999999999}`, `"0x1b4"`, `[]`, `not json`, "",
	} {
		f.Add([]byte(s))
	}
	ignore := map[string][]string{"r": {"result.*.hash", "result.timestamp", "0"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, numbers := range []bool{false, true} {
			c := newComparer(t, Options{NumbersByValue: numbers, Ignore: ignore, MaxBytes: 64}, "a", "b")
			c.Add(1, "r", data, body(0, string(data)))
			c.Add(1, "r", data, body(1, okOne)) // most often a mismatch: an example and its diff
			r := c.Result()
			for _, e := range r.Examples {
				if !utf8.ValidString(e.AnswerA) || !utf8.ValidString(e.Sent) || len(e.AnswerA) > 64 {
					t.Fatalf("example %+v: bodies must be valid UTF-8 of at most 64 bytes", e)
				}
			}
			if !json.Valid(data) {
				continue
			}
			var p fastjson.Parser
			v, err := p.ParseBytes(data)
			if err != nil {
				t.Fatalf("valid JSON %q not parsed: %v", data, err)
			}
			again, ok := reformat(nil, v)
			if !ok {
				continue
			}
			ka, _, _ := keyOf(t, numbers, ignore["r"], string(data))
			kb, _, okB := keyOf(t, numbers, ignore["r"], string(again))
			if !okB || !bytes.Equal(ka, kb) {
				t.Fatalf("numbers %v: %q written again as %q gives another key", numbers, data, again)
			}
			c.Add(2, "r", nil, body(0, string(data)))
			c.Add(2, "r", nil, body(1, string(again)))
			if got := c.Live().Totals.Match; got != r.Totals.Match+1 {
				t.Fatalf("numbers %v: %q and %q were not counted a match", numbers, data, again)
			}
		}
	})
}
