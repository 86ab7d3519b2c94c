package schema

import (
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
