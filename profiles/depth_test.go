package profiles

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// deepProfile is a valid profile whose request[1].params (line 6, three levels down: the
// request list, its table, params) is value.
func deepProfile(value string) string {
	return "name = \"deep\"\nurl = \"http://127.0.0.1:1/\"\n\n[[request]]\nmethod = \"m\"\nparams = " + value +
		"\n\n[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"
}

// nest writes n levels of open, then inner, then n levels of end.
func nest(n int, open, inner, end string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(end, n)
}

// A million levels of anything is refused at the key that holds it, before the TOML parser
// sees it: arrays overflowed the Go stack (in encodeJSON), inline tables and dotted keys made
// the parser take quadratic time.
func TestLoadRefusesDeepNesting(t *testing.T) {
	const million = 1_000_000
	tests := []struct {
		name  string
		src   string
		line  int
		field string // the problem's field starts with this
	}{
		// The profile of the report: params of a million nested arrays.
		{"arrays", deepProfile(nest(million, "[", "", "]")), 6, "request[1].params"},
		// Inline tables: {a={a={…}}}.
		{"inline tables", deepProfile(nest(million, "{a=", "1", "}")), 6, "request[1].params"},
		// Dotted keys inside an inline table nest as deep without a bracket: {a.a.a…=1}.
		{"dotted keys in an inline table", deepProfile("{" + strings.Repeat("a.", million) + "a=1}"), 6, "request[1].params"},
		// Arrays of inline tables of arrays, and a table entry after a dotted one.
		{"mixed", deepProfile("{b.c = 1, x = " + nest(million, "[{a=", "1", "}]") + "}"), 6, "request[1].params"},
		// Spread over lines: the problem is at the key.
		{"one bracket a line", deepProfile(nest(million, "[\n", "", "]\n")), 6, "request[1].params"},
		// Inside a batch call.
		{"batch params", deepProfile("1\nbatch = [{method = \"m\", params = " + nest(million, "[", "", "]") + "}]"), 7, "request[1].batch"},
		// A top-level dotted key makes a table per part.
		{"dotted key", strings.Repeat("a.", million) + "a = 1\n", 1, "a.a.a.a"},
		// So does a table header …
		{"header", "x = 1\n[" + strings.Repeat("a.", million) + "a]\n", 2, "a.a.a.a"},
		// … and an array-of-tables header.
		{"array-of-tables header", "\n[[" + strings.Repeat("a.", million) + "a]]\n", 2, "a.a.a.a"},
		// Just past the limit: params are an array at level 3, so maxDepth-2 arrays reach it.
		{"one array too deep", deepProfile(nest(maxDepth-1, "[", "", "]")), 6, "request[1].params"},
		// The same with tables, the last made by a dotted key.
		{"one table too deep", deepProfile(nest(maxDepth-3, "{a=", "{b.c=1}", "}")), 6, "request[1].params"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := loadErr(t, tc.src, nil)
			if len(e.Problems) != 1 {
				t.Fatalf("want one problem, got %d: %v", len(e.Problems), e)
			}
			p := e.Problems[0]
			want := fmt.Sprintf("nested deeper than %d levels: ", maxDepth)
			if p.Line != tc.line || !strings.HasPrefix(p.Field, tc.field) || !strings.HasPrefix(p.Msg, want) {
				t.Errorf("got %q, want line %d, field %s…, %s…", p, tc.line, tc.field, want)
			}
			if n := utf8.RuneCountInString(p.Error()); n > 200 {
				t.Errorf("the message is %d runes long: %.200s…", n, p.Error())
			}
		})
	}
}

// maxDepth levels load; brackets inside strings and comments do not count.
func TestLoadAcceptsNestingUpToTheLimit(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		// params at level 3 hold arrays down to level maxDepth.
		{"arrays", deepProfile(nest(maxDepth-2, "[", "", "]"))},
		// The same with inline tables, the last made by a dotted key.
		{"inline tables", deepProfile(nest(maxDepth-4, "{a=", "{b.c=1}", "}"))},
		// Brackets in strings, multi-line strings and comments are text.
		{"text", deepProfile(`["` + strings.Repeat("[{", 1000) + `", '''` + strings.Repeat("[", 1000) + `''']  # ` + strings.Repeat("{", 1000))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mustLoad(t, tc.src)
		})
	}
}

// The template compiler bounds its own walk too, whatever its caller checked: a value nested
// a million levels deep is an error at its field, not a stack overflow.
func TestJSONValueRefusesDeepValues(t *testing.T) {
	var deep any = "{{seq}}"
	for range 1_000_000 {
		deep = []any{deep}
	}
	tests := []struct {
		name  string
		value any
	}{
		// With its template at the bottom.
		{"templated", deep},
		// Without templates: encodeJSON would walk it.
		{"plain", []any{[]any{}, table{"a": []table{{"b": deep}}}}},
		// A template found first must not hide a deeper branch.
		{"template first", []any{"{{seq}}", deep}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b templateBuilder
			err := newTemplateCompiler(&source{name: "t.toml"}).jsonValue(&b, tc.value, "params", 0)
			want := fmt.Sprintf("params: nested deeper than %d levels", maxDepth)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want %s", err, want)
			}
		})
	}
}

// A JSON target line or a body file nested a million levels deep is parsed by encoding/json,
// which stops at 10,000 levels: the target is refused at its line, the body sent as written.
func TestTargetsAndBodiesDeep(t *testing.T) {
	deep := nest(1_000_000, "[", "", "]")
	errs := parseTargets(strings.NewReader("\n"+`{"method":"POST","url":"http://127.0.0.1:1/","header":`+deep+"}\n"), "json", nil, func(target) bool { return true })
	if len(errs) != 1 || errs[0].line != 2 || !strings.Contains(errs[0].msg, "not a JSON target") {
		t.Errorf("deep JSON target: got %+v, want one problem at line 2: not a JSON target", errs)
	}
	files := fstest.MapFS{"deep.json": {Data: []byte(deep)}}
	src := "url = \"http://127.0.0.1:1/\"\n[[request]]\nbody_file = \"deep.json\"\n[[stage]]\nrate = 1\n"
	p, err := load(&source{name: "t.toml", readBody: fsReader(files)}, []byte(src))
	if err != nil || len(p.Config.Requests) != 1 || string(p.Config.Requests[0].Body) != deep {
		t.Errorf("deep body_file: got %v, want it loaded as written", err)
	}
}
