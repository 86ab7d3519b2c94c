package profiles

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/rpcstress/rpcstress/engine"
)

// testFiles are the lines files the template unit tests read, from memory.
var testFiles = fstest.MapFS{
	"accounts.txt": {Data: []byte("a1\n\n  a2  \r\na3\n")},
	"tricky.txt":   {Data: []byte("say \"hi\"\nback\\slash\ttab\n<&> ünï ✓\n")},
	"blank.txt":    {Data: []byte("\n  \n\r\n")},
	"numbers.txt":  {Data: []byte("0\n436\n\n 0x1B4 \n18446744073709551615\n")},
	"notnum.txt":   {Data: []byte("1\n\n\n2x\n")},
}

// compileTemplate compiles s for esc with files from testFiles, in a profile without a chain.
func compileTemplate(s string, esc escaping) (*bodyTemplate, error) {
	return compileWithHead(s, esc, nil)
}

// compileWithHead is compileTemplate in a profile whose chain's head is in cell.
func compileWithHead(s string, esc escaping, cell *engine.HeadCell) (*bodyTemplate, error) {
	tc := newTemplateCompiler(&source{name: "t.toml", readBody: fsReader(testFiles)})
	tc.head = cell
	var b templateBuilder
	if err := tc.text(&b, s, esc); err != nil {
		return nil, err
	}
	return b.build(), nil
}

func mustTemplate(t testing.TB, s string, esc escaping) *bodyTemplate {
	t.Helper()
	tmpl, err := compileTemplate(s, esc)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return tmpl
}

// render renders tmpl n times with a fixed seed.
func render(tmpl *bodyTemplate, n int) []string {
	rng := rand.New(rand.NewPCG(7, 8))
	out := make([]string, n)
	var buf []byte
	for i := range out {
		buf = tmpl.Append(buf[:0], rng)
		out[i] = string(buf)
	}
	return out
}

// TestTemplateFunctions: each function's renderings, checked by a predicate over 200 of them.
func TestTemplateFunctions(t *testing.T) {
	inSet := func(set ...string) func(string) bool {
		return func(s string) bool { return slices.Contains(set, s) }
	}
	intIn := func(lo, hi int64) func(string) bool {
		return func(s string) bool {
			n, err := strconv.ParseInt(s, 10, 64)
			return err == nil && n >= lo && n <= hi
		}
	}
	alphabet := func(n int, digits string) func(string) bool {
		return func(s string) bool {
			return len(s) == n && strings.Trim(s, digits) == ""
		}
	}
	tests := []struct {
		name string
		tmpl string
		esc  escaping
		ok   func(string) bool
	}{
		// Both bounds are inclusive.
		{"randInt", "{{randInt 3 5}}", escapeRaw, intIn(3, 5)},
		// A range of one value.
		{"randInt single", "{{randInt -7 -7}}", escapeRaw, inSet("-7")},
		// The whole int64 range does not overflow.
		{"randInt full", "{{randInt -9223372036854775808 9223372036854775807}}", escapeRaw, intIn(-1<<63, 1<<63-1)},
		// Spaces inside the braces are allowed.
		{"spaces", "{{  randInt   1 2 }}", escapeRaw, intIn(1, 2)},
		// seq starts at 1 by default …
		{"seq", "{{seq}}", escapeRaw, intIn(1, 200)},
		// … or where it is told.
		{"seq start", "{{seq 1000}}", escapeRaw, intIn(1000, 1199)},
		// pick chooses among its strings.
		{"pick", `{{pick "finalized" "confirmed"}}`, escapeRaw, inSet("finalized", "confirmed")},
		// pick in a JSON string escapes quotes.
		{"pick json", `{{pick "a\"b"}}`, escapeJSON, inSet(`a\"b`)},
		// line: trimmed, empty lines skipped.
		{"line", `{{line "accounts.txt"}}`, escapeRaw, inSet("a1", "a2", "a3")},
		// lineSeq: the same lines.
		{"lineSeq", `{{lineSeq "accounts.txt"}}`, escapeRaw, inSet("a1", "a2", "a3")},
		// line contents escaped for JSON.
		{"line json", `{{line "tricky.txt"}}`, escapeJSON, inSet(`say \"hi\"`, `back\\slash\ttab`, `<&> ünï ✓`)},
		// line contents as is in a raw body.
		{"line raw", `{{line "tricky.txt"}}`, escapeRaw, inSet(`say "hi"`, "back\\slash\ttab", `<&> ünï ✓`)},
		// randHex N is N characters: 0x + 40 is an Ethereum address.
		{"randHex", "0x{{randHex 40}}", escapeRaw, func(s string) bool { return strings.HasPrefix(s, "0x") && alphabet(40, hexDigits)(s[2:]) }},
		// randHex of an odd length.
		{"randHex odd", "{{randHex 17}}", escapeRaw, alphabet(17, hexDigits)},
		// randBase58 N is N characters of the base58 alphabet.
		{"randBase58", "{{randBase58 44}}", escapeRaw, alphabet(44, base58Digits)},
		// payload N is N bytes that need no escaping.
		{"payload", "{{payload 100}}", escapeJSON, func(s string) bool {
			return len(s) == 100 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789") == ""
		}},
		// payload 0 is nothing.
		{"payload 0", "x{{payload 0}}y", escapeRaw, inSet("xy")},
		// A quoted string alone is literal text: the way to write "{{".
		{"literal braces", `a{{"{{"}}b}}`, escapeRaw, inSet("a{{b}}")},
		// Literal text around calls is kept; in JSON it is escaped.
		{"mixed json", `id-"{{randInt 1 1}}"`, escapeJSON, inSet(`id-\"1\"`)},
		// Two calls in one string.
		{"two calls", `{{randInt 1 1}}-{{randInt 2 2}}`, escapeRaw, inSet("1-2")},
		// hex writes an EVM quantity: 0x, lower case, no leading zeros.
		{"hex randInt", "{{hex randInt 436 436}}", escapeRaw, inSet("0x1b4")},
		// Zero is 0x0, not 0x or 0x00.
		{"hex zero", "{{hex randInt 0 0}}", escapeRaw, inSet("0x0")},
		// The largest int64 randInt can draw.
		{"hex max", "{{hex randInt 9223372036854775807 9223372036854775807}}", escapeRaw, inSet("0x7fffffffffffffff")},
		// hex of a range stays within it.
		{"hex range", "{{hex randInt 10 12}}", escapeRaw, inSet("0xa", "0xb", "0xc")},
		// hex of seq counts in hex.
		{"hex seq", "{{hex seq 255}}", escapeJSON, func(s string) bool {
			n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
			return strings.HasPrefix(s, "0x") && err == nil && n >= 255 && n < 455
		}},
		// hex of a lines file: decimal and 0x lines alike (harvest writes 0x), any case.
		{"hex line", `{{hex line "numbers.txt"}}`, escapeRaw, inSet("0x0", "0x1b4", "0xffffffffffffffff")},
		// Inside a string, with text around it.
		{"hex in text", `block {{hex lineSeq "numbers.txt"}}!`, escapeJSON, inSet("block 0x0!", "block 0x1b4!", "block 0xffffffffffffffff!")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range render(mustTemplate(t, tt.tmpl, tt.esc), 200) {
				if !tt.ok(s) {
					t.Fatalf("%s rendered %q", tt.tmpl, s)
				}
			}
		})
	}
}

// TestTemplateErrors: every bad call fails at compile time with a message that says what to write.
func TestTemplateErrors(t *testing.T) {
	tests := []struct {
		tmpl string
		want string
	}{
		{"{{randInt 1}}", "randInt takes 2 arguments, got 1: write {{randInt A B}}"},
		{"{{randInt 5 1}}", "the lower bound 5 is above the upper bound 1: write {{randInt 1 5}}"},
		{`{{randInt "1" 2}}`, "randInt takes whole numbers"},
		{"{{randInt 1 99999999999999999999}}", "is not a whole number"},
		{"{{seq 1 2}}", "seq takes 0 or 1 arguments, got 2"},
		{`{{pick}}`, "pick needs at least one choice"},
		{`{{pick a b}}`, `a: arguments are whole numbers or quoted strings (quote file names`},
		{`{{pick 1 2}}`, "pick takes quoted strings, not 1"},
		{`{{line "missing.txt"}}`, `"missing.txt" not found`},
		{`{{line "blank.txt"}}`, `"blank.txt" has no lines`},
		{`{{line accounts.txt}}`, "quote file names"},
		{`{{lineSeq}}`, "lineSeq takes one quoted file name"},
		{"{{randHex 0}}", "0 is out of range: use 1 to"},
		{"{{randBase58 99999999}}", "99999999 is out of range"},
		{"{{payload -1}}", "-1 is out of range: use 0 to"},
		{"{{randint 1 2}}", `unknown function "randint": did you mean randInt?`},
		{"{{nope}}", `unknown function "nope": use one of head, hex, line, lineSeq, payload, pick, randBase58, randHex, randInt, recent, seq`},
		// hex needs a call to format …
		{"{{hex}}", "hex formats the number of another call: write {{hex head}}"},
		{"{{hex 5}}", "hex formats the number of another call"},
		// … one that yields a number …
		{`{{hex pick "1"}}`, "pick does not yield a whole number for hex to format"},
		{`{{hex randHex 4}}`, "randHex does not yield a whole number"},
		{"{{hex hex seq}}", "hex of hex"},
		// … never a negative one …
		{"{{hex randInt -1 5}}", "randInt can yield -1, and hex writes no negative numbers"},
		{"{{hex seq -3}}", "seq can yield -3"},
		// … and the inner call's own mistakes are reported as such.
		{"{{hex randInt 5 1}}", "the lower bound 5 is above the upper bound 1"},
		{"{{hex randint 1 2}}", `unknown function "randint": did you mean randInt?`},
		{"{{hex seq x}}", "x: arguments are whole numbers"},
		{`{{hex line numbers.txt}}`, "quote file names"},
		// A lines file of something else names the file's line (blank lines counted).
		{`{{hex line "notnum.txt"}}`, `notnum.txt:4: "2x" is not a whole number from 0 (decimal, or hex with 0x)`},
		{`{{hex lineSeq "missing.txt"}}`, `"missing.txt" not found`},
		{"{{randInt 1 2", `"{{" is not closed`},
		{"abc {{", `"{{" is not closed`},
		{`{{pick "a}}`, "a quoted string in the call is not closed"},
		{"{{}}", "is empty"},
		{"{{ 5 }}", "a call starts with a function name"},
		{`{{"a" "b"}}`, "a call starts with a function name"},
		{"{{seq !}}", `unexpected "!"`},
		{`{{pick "\q"}}`, "is not valid"},
	}
	for _, tt := range tests {
		_, err := compileTemplate(tt.tmpl, escapeJSON)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.tmpl, err, tt.want)
		}
	}
}

// TestTemplateRandIntUniform: randInt 0 9 over 100 000 draws puts each value within ±10% of
// 10 000 (the standard deviation is ~95, so this fails by chance never in practice).
func TestTemplateRandIntUniform(t *testing.T) {
	counts := map[string]int{}
	for _, s := range render(mustTemplate(t, "{{randInt 0 9}}", escapeRaw), 100_000) {
		counts[s]++
	}
	if len(counts) != 10 {
		t.Fatalf("values %v", counts)
	}
	for v, n := range counts {
		if n < 9000 || n > 11000 {
			t.Errorf("value %s drawn %d times of 100000", v, n)
		}
	}
}

// TestTemplatePickUniform: pick's choices, line's lines and base58's characters are drawn
// uniformly, within wide bounds.
func TestTemplatePickUniform(t *testing.T) {
	tests := []struct {
		tmpl  string
		draws int
		want  int // distinct values
	}{
		{`{{pick "a" "b" "c"}}`, 30_000, 3},
		{`{{line "accounts.txt"}}`, 30_000, 3},
		{"{{randBase58 1}}", 58_000, 58},
		{"{{randHex 1}}", 16_000, 16},
	}
	for _, tt := range tests {
		counts := map[string]int{}
		for _, s := range render(mustTemplate(t, tt.tmpl, escapeRaw), tt.draws) {
			counts[s]++
		}
		if len(counts) != tt.want {
			t.Errorf("%s: %d distinct values, want %d", tt.tmpl, len(counts), tt.want)
		}
		mean := tt.draws / tt.want
		for v, n := range counts {
			if n < mean*85/100 || n > mean*115/100 {
				t.Errorf("%s: %q drawn %d times, expected about %d", tt.tmpl, v, n, mean)
			}
		}
	}
}

// TestTemplateLineSeq: lineSeq goes through the file in order and wraps around.
func TestTemplateLineSeq(t *testing.T) {
	got := render(mustTemplate(t, `{{lineSeq "accounts.txt"}}`, escapeRaw), 7)
	want := []string{"a1", "a2", "a3", "a1", "a2", "a3", "a1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestTemplateSeqConcurrent: one seq shared by 8 goroutines hands out every number exactly
// once, and each goroutine sees its numbers increase.
func TestTemplateSeqConcurrent(t *testing.T) {
	const workers, each = 8, 5000
	tmpl := mustTemplate(t, "{{seq 10}}", escapeRaw)
	results := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			var buf []byte
			for range each {
				buf = tmpl.Append(buf[:0], rng)
				n, _ := strconv.ParseInt(string(buf), 10, 64)
				results[w] = append(results[w], n)
			}
		})
	}
	wg.Wait()
	seen := make(map[int64]bool, workers*each)
	for w, r := range results {
		if !slices.IsSorted(r) {
			t.Errorf("worker %d saw numbers out of order", w)
		}
		for _, n := range r {
			if seen[n] {
				t.Fatalf("%d handed out twice", n)
			}
			seen[n] = true
		}
	}
	for n := int64(10); n < 10+workers*each; n++ {
		if !seen[n] {
			t.Fatalf("%d never handed out", n)
		}
	}
}

// TestTemplateAppendAllocs: rendering into a buffer that has grown allocates nothing.
func TestTemplateAppendAllocs(t *testing.T) {
	tmpl := mustTemplate(t, `{"a":{{randInt 1 1000000}},"b":"{{line "tricky.txt"}}","c":{{seq}},"d":"0x{{randHex 40}}","e":"{{randBase58 44}}","f":"{{payload 300}}","g":"{{pick "x" "y"}}","h":"{{lineSeq "accounts.txt"}}","i":"{{hex randInt 1 99999999}}","j":"{{hex line "numbers.txt"}}"}`, escapeJSON)
	rng := rand.New(rand.NewPCG(1, 2))
	buf := tmpl.Append(nil, rng)
	if n := testing.AllocsPerRun(1000, func() { buf = tmpl.Append(buf[:0], rng) }); n != 0 {
		t.Errorf("%v allocations per rendering", n)
	}
}

// TestTemplateParams: through the loader, a params string that is exactly one numeric call
// becomes a JSON number; any other string with calls stays a string; values without calls
// render as before.
func TestTemplateParams(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
[[request]]
method = "getBlocks"
params = ["{{seq 100}}", "{{randInt 5 5}}", " {{seq}}", "slot-{{seq 7}}", "{{pick \"a\"}}", {n = "{{randInt 2 2}}", s = "<{{randHex 2}}>", plain = 1.5}, ["{{seq 3}}", true]]
[[stage]]
rate = 1
`)
	r := p.Config.Requests[0]
	if r.Template == nil {
		t.Fatal("no template")
	}
	var got []string
	var buf []byte
	rng := rand.New(rand.NewPCG(1, 1))
	for range 2 {
		buf = r.Template.Append(buf[:0], rng)
		got = append(got, string(buf))
	}
	for i, body := range got {
		var call struct {
			Params []any `json:"params"`
		}
		if err := json.Unmarshal([]byte(body), &call); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		ps := call.Params
		obj, _ := ps[5].(map[string]any)
		arr, _ := ps[6].([]any)
		if ps[0] != float64(100+i) || ps[1] != float64(5) || ps[2] != " "+strconv.Itoa(1+i) || ps[3] != "slot-"+strconv.Itoa(7+i) || ps[4] != "a" ||
			obj["n"] != float64(2) || obj["plain"] != 1.5 || len(obj["s"].(string)) != 4 || arr[0] != float64(3+i) || arr[1] != true {
			t.Errorf("rendering %d: %s", i, body)
		}
	}
	if !strings.HasPrefix(got[0], `{"jsonrpc":"2.0","id":1,"method":"getBlocks","params":[100,5," 1","slot-7","a",{"n":2,"plain":1.5,"s":"<`) {
		t.Errorf("first rendering %s", got[0])
	}
	// The sample rendering shows the shape and does not use up the sequences.
	if !strings.Contains(string(r.Body), `"params":[100,5," 1","slot-7"`) || r.Items != 1 || r.Name != "getBlocks" {
		t.Errorf("sample %s items %d name %q", r.Body, r.Items, r.Name)
	}
}

// TestTemplateJSONValid: params from lines with quotes, backslashes, tabs and non-ASCII render
// to valid JSON that decodes back to the lines, every time.
func TestTemplateJSONValid(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
[[request]]
method = "m"
params = ["{{line \"tricky.txt\"}}", {k = "x{{lineSeq \"tricky.txt\"}}y"}, "{{payload 10}}"]
[[stage]]
rate = 1
`)
	lines := []string{`say "hi"`, "back\\slash\ttab", "<&> ünï ✓", "{{not a template}}"}
	tmpl := p.Config.Requests[0].Template
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []byte
	for i := range 1000 {
		buf = tmpl.Append(buf[:0], rng)
		var call struct {
			Params []any `json:"params"`
		}
		if !json.Valid(buf) || json.Unmarshal(buf, &call) != nil {
			t.Fatalf("invalid JSON: %s", buf)
		}
		if !slices.Contains(lines, call.Params[0].(string)) || call.Params[1].(map[string]any)["k"] != "x"+lines[i%len(lines)]+"y" {
			t.Fatalf("rendering %d: %s", i, buf)
		}
	}
}

// TestTemplateRawBody: in a raw body the text is used as is, the user writes the quotes, and
// the method and items are read from the sample.
func TestTemplateRawBody(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
[[request]]
body = '{"jsonrpc":"2.0","id":{{seq}},"method":"getBlock","params":[{{randInt 10 10}}, "{{line "accounts.txt"}}"]}'
[[request]]
body = '{"literal":"{{"{{"}}"}'
[[stage]]
rate = 1
`)
	r := p.Config.Requests[0]
	if r.Template == nil || r.Items != 1 || p.info[0].RPCMethod != "getBlock" {
		t.Fatalf("request %+v info %+v", r, p.info[0])
	}
	got := string(r.Template.Append(nil, rand.New(rand.NewPCG(1, 1))))
	if !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[10, "`) || !json.Valid([]byte(got)) {
		t.Errorf("rendered %s", got)
	}
	if r2 := p.Config.Requests[1]; r2.Template != nil || string(r2.Body) != `{"literal":"{{"}` {
		t.Errorf("literal braces: template %v body %s", r2.Template, r2.Body)
	}
}

// TestTemplateLoadErrors: a bad template fails the load with file:line and the field.
func TestTemplateLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"params", "[[request]]\nmethod = \"m\"\nparams = [\"{{randInt 9 1}}\"]\n",
			`t.toml:4: request[1].params[1]: "{{randInt 9 1}}": the lower bound 9 is above the upper bound 1`},
		{"nested", "[[request]]\nmethod = \"m\"\n[request.params]\nfilter = {from = \"{{seq x}}\"}\n",
			`t.toml:5: request[1].params.filter.from: "{{seq x}}": x: arguments are whole numbers`},
		{"body", "[[request]]\nbody = '{\"a\":{{nope}}}'\n",
			`t.toml:3: request[1].body: "{{nope}}": unknown function "nope"`},
		{"file", "[[request]]\nmethod = \"m\"\nparams = ['{{line \"none.txt\"}}']\n",
			`t.toml:4: request[1].params[1]: "{{line \"none.txt\"}}": "none.txt" not found`},
		{"unterminated", "[[request]]\nmethod = \"m\"\nparams = [\"{{seq\"]\n",
			`t.toml:4: request[1].params[1]: "{{seq": "{{" is not closed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := loadErr(t, "url = \"http://h\"\n"+tt.src+"[[stage]]\nrate = 1\n", nil)
			if !strings.Contains(e.Error(), tt.want) {
				t.Errorf("got:\n%v\nwant a problem containing:\n%s", e, tt.want)
			}
		})
	}
}

// FuzzTemplate feeds arbitrary strings to the template compiler: it must never panic; what
// compiles must render, and in a JSON string it must render to valid JSON (a JSON number when
// it is one numeric call). The committed corpus lives in testdata/fuzz/FuzzTemplate.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"{{randInt 1 100}}", "{{seq}}", "{{seq -5}}", `{{pick "a" "b\"c"}}`, `{{line "tricky.txt"}}`,
		`{{lineSeq "accounts.txt"}}`, "0x{{randHex 40}}", "{{randBase58 44}}", "{{payload 64}}",
		`a{{"{{"}}b`, "{{", "}}", "{{}}", `{{pick "unterminated}}`, "{{randInt 5 1}}", "x{{seq}}y{{seq 9}}z",
		"{{hex randInt 1 1000}}", `{{hex lineSeq "numbers.txt"}}`, "{{hex hex seq}}", "{{hex}}",
		"{{head}}", "{{recent 100}}", "{{hex head}}", "0x{{hex recent 5}}",
	} {
		f.Add(s)
	}
	tc := newTemplateCompiler(&source{name: "f.toml", readBody: fsReader(testFiles)})
	tc.head = &engine.HeadCell{}
	tc.head.Store(20_000_000)
	rng := rand.New(rand.NewPCG(1, 2))
	f.Fuzz(func(t *testing.T, s string) {
		var raw, js templateBuilder
		errRaw := tc.text(&raw, s, escapeRaw)
		errJSON := tc.text(&js, s, escapeJSON)
		if (errRaw == nil) != (errJSON == nil) {
			t.Fatalf("raw error %v, JSON error %v", errRaw, errJSON)
		}
		if errRaw != nil {
			if errRaw.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if !hasTemplate(s) && string(raw.build().Append(nil, rng)) != s {
			t.Fatalf("text without calls changed: %q", s)
		}
		var v templateBuilder
		if err := tc.jsonValue(&v, s, "params", 0); err != nil {
			t.Fatalf("compiles as text but not as a value: %v", err)
		}
		tmpl := v.build()
		for range 3 {
			out := tmpl.Append(nil, rng)
			if !json.Valid(out) {
				t.Fatalf("%q rendered invalid JSON %s", s, out)
			}
			if tc.numericCall(s) != nil {
				if _, err := strconv.ParseInt(string(out), 10, 64); err != nil {
					t.Fatalf("%q rendered %s, not a number", s, out)
				}
			}
			if len(out) > tmpl.maxLen()+2 && tmpl.hasGenerators() {
				t.Fatalf("%q rendered %d bytes, over its bound %d", s, len(out), tmpl.maxLen())
			}
		}
	})
}

// BenchmarkTemplateAppend is the template's own cost per request: one rendering into a warm
// buffer, next to copying a fixed body of the same call.
func BenchmarkTemplateAppend(b *testing.B) {
	cases := []struct{ name, params string }{
		{"fixed-copy", `["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ", {commitment = "finalized"}]`},
		{"line+pick", `["{{line \"accounts.txt\"}}", {commitment = "{{pick \"finalized\" \"confirmed\"}}"}]`},
		{"heavy", `["0x{{randHex 40}}", "{{randInt 1 20000000}}", {id = "{{seq}}", key = "{{randBase58 44}}", acct = "{{lineSeq \"accounts.txt\"}}", pad = "{{payload 200}}"}]`},
	}
	for _, cc := range cases {
		b.Run(cc.name, func(b *testing.B) {
			r := mustLoad(b, "url = \"http://h\"\n[[request]]\nmethod = \"getBalance\"\nparams = "+cc.params+"\n[[stage]]\nrate = 1\n").Config.Requests[0]
			rng := rand.New(rand.NewPCG(1, 2))
			buf := make([]byte, 0, 1024)
			b.ReportAllocs()
			for b.Loop() {
				if r.Template != nil {
					buf = r.Template.Append(buf[:0], rng)
				} else {
					buf = append(buf[:0], r.Body...)
				}
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}
