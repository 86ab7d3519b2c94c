package schema

import (
	"encoding/json"
	"reflect"
	"testing"
)

// RequireType fails tb once for every way the Go type t differs from the schema's definition
// at ptr (CheckType, with the same as), so each drift reads as one test error; a definition
// that cannot be read stops tb.
func RequireType(tb testing.TB, k Kind, ptr string, t reflect.Type, as map[reflect.Type]reflect.Type) {
	tb.Helper()
	problems, err := CheckType(k, ptr, t, as)
	if err != nil {
		tb.Fatal(err)
		return
	}
	for _, p := range problems {
		tb.Error(p)
	}
}

// MustCompile is Compile for a test: a schema that does not compile stops tb.
func MustCompile(tb testing.TB) *Schemas {
	tb.Helper()
	s, err := Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// RequireValid fails tb when v, encoded as rpcstress writes its files (indented JSON), does not
// match the schema of k; the error begins with what, the document's name for the reader. A
// value that does not encode stops tb.
func (s *Schemas) RequireValid(tb testing.TB, k Kind, v any, what string) {
	tb.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		tb.Fatal(err)
		return
	}
	if err := s.Validate(k, b); err != nil {
		tb.Errorf("%s does not match its schema: %v", what, err)
	}
}
