package profiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// templateCompiler turns template strings and params into bodyTemplates. One serves a whole
// profile, so a lines file used by several calls is read once.
type templateCompiler struct {
	src   *source
	funcs map[string]templateFunc
	raw   map[string][]string   // lines file → its lines
	lined map[linesKey][][]byte // lines file and escaping → lines ready to append
	fails map[string]error      // lines files that could not be read
	head  *engine.HeadCell      // the chain's head for {{head}} and {{recent N}}; nil: no chain
	data  *dataFolder           // where lines files are read from; nil: beside the profile
}

type linesKey struct {
	name string
	esc  escaping
}

func newTemplateCompiler(src *source) *templateCompiler {
	return &templateCompiler{src: src, funcs: templateFuncs(), raw: map[string][]string{},
		lined: map[linesKey][][]byte{}, fails: map[string]error{}}
}

// standIn is what a lines file missing from the data folder yields, so that the rest of the
// profile is still checked without a problem of its own: "0" is valid JSON, a string's
// content, and a number for {{hex line}}. The profile does not load (see reportAbsent).
func standIn() [][]byte { return [][]byte{[]byte("0")} }

// readLines reads a lines file whole: from the data folder when the profile has one, else
// beside the profile.
func (tc *templateCompiler) readLines(name string) ([]byte, error) {
	if tc.data != nil {
		return tc.data.read(name)
	}
	return tc.src.readBody(name)
}

// linesPath is where a lines file is, as people can open it.
func (tc *templateCompiler) linesPath(name string) string {
	if tc.data != nil && !filepath.IsAbs(name) {
		return filepath.Join(tc.data.dir, name)
	}
	return tc.src.displayPath(name)
}

// lines returns a lines file's non-empty lines, escaped for esc, reading the file once.
func (tc *templateCompiler) lines(name string, esc escaping) ([][]byte, error) {
	if out, ok := tc.lined[linesKey{name, esc}]; ok {
		return out, nil
	}
	if err, ok := tc.fails[name]; ok {
		return nil, err
	}
	if tc.data != nil && tc.data.missing {
		return standIn(), nil // the folder's absence is the one problem, said at data_dir
	}
	raw, ok := tc.raw[name]
	if !ok {
		fix := "put the file next to the profile (paths are relative to its folder) or fix the path"
		if tc.data != nil {
			fix = "make it readable, or point --data at another folder"
		}
		data, err := tc.readLines(name)
		if tc.data != nil && errors.Is(err, fs.ErrNotExist) {
			tc.data.lack(name)
			return standIn(), nil // said once with the others missing, at data_dir
		}
		if err != nil {
			err = errors.New(fileProblem(err, fix))
			tc.fails[name] = err
			return nil, err
		}
		raw = splitLines(data)
		if len(raw) == 0 {
			err := fmt.Errorf("%q has no lines: write one value per line (empty lines are skipped)", name)
			if tc.data != nil {
				// A harvest writes an empty file when the blocks it read held none (no ERC-20
				// transfer, no log): the fix is a wider harvest, or a mix without that request.
				err = fmt.Errorf("%q in %s is empty: the blocks harvested held none; harvest more (rpcstress harvest URL --blocks N) or remove this request", name, tc.data.dir)
			}
			tc.fails[name] = err
			return nil, err
		}
		tc.raw[name] = raw
	}
	out := make([][]byte, len(raw))
	for i, l := range raw {
		out[i] = escapeFor([]byte(l), esc)
	}
	tc.lined[linesKey{name, esc}] = out
	return out, nil
}

// text compiles the template string s into b; literal text and generated values are written
// as is (escapeRaw) or escaped for the inside of a JSON string (escapeJSON).
func (tc *templateCompiler) text(b *templateBuilder, s string, esc escaping) error {
	segs, err := parseTemplate(s)
	if err != nil {
		return err
	}
	for _, seg := range segs {
		if seg.call == nil {
			if esc == escapeJSON {
				b.literal(appendJSONStringBody(nil, seg.text))
			} else {
				b.literalString(seg.text)
			}
			continue
		}
		g, err := tc.generator(seg.call, esc)
		if err != nil {
			return err
		}
		b.generator(g)
	}
	return nil
}

// generator compiles one call.
func (tc *templateCompiler) generator(c *call, esc escaping) (generator, error) {
	f, ok := tc.funcs[c.name]
	if !ok {
		hint := "use one of " + strings.Join(funcNames(), ", ")
		if s := suggest.Closest(c.name, funcNames()); s != "" {
			hint = fmt.Sprintf("did you mean %s?", s)
		}
		return nil, &templateError{call: c.text, msg: fmt.Sprintf("unknown function %q: %s", c.name, hint)}
	}
	if !f.nests {
		if err := checkArgs(c); err != nil {
			return nil, err
		}
	}
	return f.compile(c, tc, esc)
}

// numericCall returns the call when s is exactly one call of a numeric function, such as
// "{{randInt 0 100}}": in params it becomes a JSON number, not a string.
func (tc *templateCompiler) numericCall(s string) *call {
	if len(s) < 4 || s[:2] != "{{" || s[len(s)-2:] != "}}" {
		return nil
	}
	segs, err := parseTemplate(s)
	if err != nil || len(segs) != 1 || segs[0].call == nil || len(segs[0].call.text) != len(s) {
		return nil
	}
	if f, ok := tc.funcs[segs[0].call.name]; ok && f.numeric {
		return segs[0].call
	}
	return nil
}

// jsonValue writes the decoded TOML value v as JSON into b. Strings holding template calls
// become generated text inside the string, or a JSON number when the string is exactly one
// numeric call; everything else is written as encoding/json writes it (map keys sorted, no
// HTML escaping), so a value without templates renders exactly as before templates existed.
// field locates v for error messages ("params[2].filter"; indices count from 1); depth is
// how many levels down v is, so that no value nested deeper than maxDepth is walked.
func (tc *templateCompiler) jsonValue(b *templateBuilder, v any, field string, depth int) error {
	templated, tooDeep := shape(v, depth)
	if tooDeep {
		return &fieldError{field: field, msg: tooDeepMsg()}
	}
	if !templated {
		enc, err := encodeJSON(v)
		if err != nil {
			return &fieldError{field: field, msg: fmt.Sprintf("cannot be written as JSON (%v): use strings, numbers, booleans, arrays and tables", err)}
		}
		b.literal(enc)
		return nil
	}
	wrap := func(err error) error {
		if _, ok := err.(*fieldError); ok {
			return err
		}
		return &fieldError{field: field, msg: err.Error()}
	}
	switch x := v.(type) {
	case string:
		if c := tc.numericCall(x); c != nil {
			g, err := tc.generator(c, escapeRaw)
			if err != nil {
				return wrap(err)
			}
			b.generator(g)
			return nil
		}
		b.literalString(`"`)
		if err := tc.text(b, x, escapeJSON); err != nil {
			return wrap(err)
		}
		b.literalString(`"`)
	case []any:
		// Every element is compiled even after one fails, so a profile's template mistakes
		// all come at once (errors.Join; checker.fieldErr reports each at its own field).
		var errs []error
		b.literalString("[")
		for i, e := range x {
			if i > 0 {
				b.literalString(",")
			}
			if err := tc.jsonValue(b, e, field+"["+strconv.Itoa(i+1)+"]", depth+1); err != nil {
				errs = append(errs, err)
			}
		}
		b.literalString("]")
		return errors.Join(errs...)
	case []table:
		return tc.jsonValue(b, tablesAsAny(x), field, depth)
	case table:
		var errs []error
		b.literalString("{")
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.literalString(",")
			}
			key, err := encodeJSON(k)
			if err != nil {
				return wrap(err)
			}
			b.literal(key)
			b.literalString(":")
			if err := tc.jsonValue(b, x[k], joinPath(field, k), depth+1); err != nil {
				errs = append(errs, err)
			}
		}
		b.literalString("}")
		return errors.Join(errs...)
	}
	return nil
}

func tablesAsAny(ts []table) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

// encodeJSON writes v compactly, without HTML escaping ("<" is sent as written; this is not
// HTML) and without the encoder's newline.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// appendJSONStringBody appends s escaped for the inside of a JSON string, without quotes.
func appendJSONStringBody(dst []byte, s string) []byte {
	enc, _ := encodeJSON(s) // a string always encodes
	return append(dst, enc[1:len(enc)-1]...)
}

// finishTemplate turns a compiled body into what the engine sends: a fixed body when nothing
// in it varies, else the template with one sample rendering as Body (for sizes and display).
// The sample does not advance sequences: the first request still gets {{seq}}'s start.
func finishTemplate(b *templateBuilder) (body []byte, tmpl *bodyTemplate, err error) {
	t := b.build()
	if !t.hasGenerators() {
		for _, p := range t.parts {
			body = append(body, p.lit...)
		}
		return body, nil, nil
	}
	if n := t.maxLen(); n > maxBodyFileBytes {
		return nil, nil, fmt.Errorf("a body can grow to %d bytes, over the maximum of %d MiB: make it smaller", n, maxBodyFileBytes>>20)
	}
	body = t.Append(make([]byte, 0, t.maxLen()), rand.New(rand.NewPCG(1, 2)))
	t.reset()
	return body, t, nil
}
