package schema

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestSchemasCompile: both files are valid draft 2020-12 schemas, the summary's references
// into the snapshot's definitions resolve, and every definition is used.
func TestSchemasCompile(t *testing.T) {
	if _, err := Compile(); err != nil {
		t.Fatal(err)
	}
	snap, _ := decode(snapshotV1)
	all := string(snapshotV1) + string(summaryV1)
	for name := range snap["$defs"].(map[string]any) {
		if !strings.Contains(all, `#/$defs/`+name+`"`) {
			t.Errorf("$defs/%s is never used", name)
		}
	}
}

// TestCheckType: CheckType finds each way a Go type can drift from its schema, here against
// the snapshot's definition of an event (t number, kind and detail strings, all required).
func TestCheckType(t *testing.T) {
	type event struct {
		T      float64 `json:"t"`
		Kind   string  `json:"kind"`
		Detail string  `json:"detail"`
	}
	type extraField struct {
		T      float64 `json:"t"`
		Kind   string  `json:"kind"`
		Detail string  `json:"detail"`
		Calls  int64   `json:"calls"`
	}
	type optionalField struct {
		T      float64 `json:"t"`
		Kind   string  `json:"kind"`
		Detail string  `json:"detail,omitempty"`
	}
	type missingField struct {
		T    float64 `json:"t"`
		Kind string  `json:"kind"`
	}
	type kindDetail struct {
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	type embedded struct {
		T float64 `json:"t"`
		kindDetail
	}
	type wrongKind struct {
		T      int    `json:"t"`
		Kind   string `json:"kind"`
		Detail string `json:"detail"`
	}
	tests := []struct {
		name string
		typ  any
		want string // a word of the problem; "" for none
	}{
		{"the same fields", event{}, ""},                              // matches
		{"a field the schema lacks", extraField{}, "calls"},           // added to Go, not to the schema
		{"omitempty but required", optionalField{}, "required"},       // may be absent, schema says always
		{"a property with no field", missingField{}, "detail"},        // the schema has more
		{"a count where a number is written", wrongKind{}, "integer"}, // kinds differ
		{"an embedded struct's fields", embedded{}, ""},               // written in its place, as encoding/json does
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems, err := CheckType(Snapshot, "/$defs/event", reflect.TypeOf(tt.typ), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(problems, "\n")
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("problems %q, want one about %q", got, tt.want)
			}
		})
	}
	if _, err := CheckType(Snapshot, "/$defs/nothing", reflect.TypeOf(event{}), nil); err == nil {
		t.Error("a definition that does not exist is not an error")
	}
}

// recorder is a testing.TB that keeps what a helper reports instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recorder) Fatal(args ...any) { r.fatal = true; r.Error(args...) }
func (r *recorder) Errorf(format string, args ...any) {
	r.Error(fmt.Sprintf(format, args...))
}

// TestRequireType: the test helper reports each problem CheckType finds as one error, none for
// a matching type, and stops at a definition that does not exist.
func TestRequireType(t *testing.T) {
	type event struct {
		T      float64 `json:"t"`
		Kind   string  `json:"kind"`
		Detail string  `json:"detail"`
	}
	type twoOff struct {
		T     int    `json:"t"`
		Kind  string `json:"kind"`
		Calls int64  `json:"calls"`
	}
	tests := []struct {
		name   string
		ptr    string
		typ    any
		errors []string // a word of each error
		fatal  bool
	}{
		{"matches", "/$defs/event", event{}, nil, false},                                            // nothing to say
		{"three problems", "/$defs/event", twoOff{}, []string{"calls", "detail", "integer"}, false}, // one error each
		{"no such definition", "/$defs/nothing", event{}, []string{"nothing"}, true},                // stops
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			RequireType(r, Snapshot, tt.ptr, reflect.TypeOf(tt.typ), nil)
			if r.fatal != tt.fatal || len(r.errors) != len(tt.errors) {
				t.Fatalf("errors %q (fatal %v), want %d (fatal %v)", r.errors, r.fatal, len(tt.errors), tt.fatal)
			}
			got := strings.Join(r.errors, "\n")
			for _, w := range tt.errors {
				if !strings.Contains(got, w) {
					t.Errorf("errors %q, want one about %q", r.errors, w)
				}
			}
		})
	}
}

// TestRequireValid: the test helper fails with the document's name when a value does not match
// the schema, and stops when the value does not encode at all. (A valid snapshot passing is
// seen by every snapshot test of engine and engine/search.)
func TestRequireValid(t *testing.T) {
	s, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		v      any
		errors []string // a word of each error
		fatal  bool
	}{
		{"not a snapshot", map[string]int{"schema_version": 1}, []string{"the run does not match its schema"}, false}, // named, not fatal
		{"does not encode", make(chan int), []string{"unsupported type"}, true},                                       // stops
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			s.RequireValid(r, Snapshot, tt.v, "the run")
			got := strings.Join(r.errors, "\n")
			if r.fatal != tt.fatal || len(r.errors) != len(tt.errors) {
				t.Fatalf("errors %q (fatal %v), want %d (fatal %v)", r.errors, r.fatal, len(tt.errors), tt.fatal)
			}
			for _, w := range tt.errors {
				if !strings.Contains(got, w) {
					t.Errorf("errors %q, want one about %q", r.errors, w)
				}
			}
		})
	}
}
