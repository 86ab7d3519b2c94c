package schema

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// CheckType holds the Go type t against the definition at ptr in the schema file k ("" for
// the document's root, "/$defs/summary" for a definition), field by field and recursively:
// every JSON field of a struct must be a property of a closed object (additionalProperties
// false), every property a field; a property is required exactly when its field is written
// always (no omitempty or omitzero); number, string, boolean, array and map kinds must
// agree. as maps a type to the one it is written as (a custom MarshalJSON); a type mapped to
// nil is taken as the schema says (time.Time, json.RawMessage). It returns every mismatch,
// each naming the field's path and what to change.
func CheckType(k Kind, ptr string, t reflect.Type, as map[reflect.Type]reflect.Type) ([]string, error) {
	docs := map[string]map[string]any{}
	for name, text := range Files() {
		doc, err := decode(text)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		docs[name] = doc
	}
	w := &walker{docs: docs, as: as, seen: map[string]bool{}}
	node, err := w.lookup(string(k), ptr)
	if err != nil {
		return nil, err
	}
	w.walk(string(k), node, t, t.String())
	return w.problems, nil
}

type walker struct {
	docs     map[string]map[string]any
	as       map[reflect.Type]reflect.Type
	seen     map[string]bool
	problems []string
}

func (w *walker) problem(path, format string, args ...any) {
	w.problems = append(w.problems, path+": "+fmt.Sprintf(format, args...))
}

// lookup finds the node at a JSON pointer of a schema file.
func (w *walker) lookup(file, ptr string) (map[string]any, error) {
	var node any = w.docs[file]
	if node == nil {
		return nil, fmt.Errorf("no schema file %s", file)
	}
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if part == "" {
			continue
		}
		m, ok := node.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s#%s: no such definition", file, ptr)
		}
		node = m[part]
	}
	m, ok := node.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s#%s: no such definition", file, ptr)
	}
	return m, nil
}

// resolve follows a node's $ref, in its own file or another ("snapshot.v1.json#/$defs/x").
func (w *walker) resolve(file string, node map[string]any) (string, map[string]any, error) {
	for range 10 {
		ref, ok := node["$ref"].(string)
		if !ok {
			return file, node, nil
		}
		target, ptr, _ := strings.Cut(ref, "#")
		if target != "" {
			file = target
		}
		var err error
		if node, err = w.lookup(file, ptr); err != nil {
			return "", nil, err
		}
	}
	return "", nil, fmt.Errorf("$ref chain too long in %s", file)
}

// jsonKind is the schema type a Go kind is written as.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return t.Kind().String()
}

// types lists a node's "type", one or several.
func types(node map[string]any) []string {
	switch v := node["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func (w *walker) walk(file string, node map[string]any, t reflect.Type, path string) {
	file, node, err := w.resolve(file, node)
	if err != nil {
		w.problem(path, "%v", err)
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if to, ok := w.as[t]; ok {
		if to == nil {
			return
		}
		t = to
	}
	key := fmt.Sprintf("%s %p %v", file, node, t)
	if w.seen[key] {
		return // a recursive type (a summary's by_request) is checked once
	}
	w.seen[key] = true
	want := jsonKind(t)
	if tt := types(node); len(tt) > 0 && !slices.Contains(tt, want) {
		w.problem(path, "Go writes a JSON %s, the schema says %v", want, tt)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		w.walkStruct(file, node, t, path)
	case reflect.Slice, reflect.Array:
		if items, ok := node["items"].(map[string]any); ok {
			w.walk(file, items, t.Elem(), path+"[]")
		} else {
			w.problem(path, "a list: give the schema its items")
		}
	case reflect.Map:
		if values, ok := node["additionalProperties"].(map[string]any); ok {
			w.walk(file, values, t.Elem(), path+"{}")
		} else {
			w.problem(path, "a map: give the schema additionalProperties with the values' schema")
		}
	}
}

// jsonField is a struct field as encoding/json writes it.
type jsonField struct {
	name     string
	optional bool
	typ      reflect.Type
}

// jsonFields are t's fields in the order encoding/json writes them. An embedded struct without
// a JSON name is written as its fields in its place (engine.RunNotes in Snapshot, TargetRun and
// the summary), so its fields are the outer struct's.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		optional := slices.Contains(strings.Split(opts, ","), "omitempty") || slices.Contains(strings.Split(opts, ","), "omitzero")
		out = append(out, jsonField{name: name, optional: optional, typ: f.Type})
	}
	return out
}

func (w *walker) walkStruct(file string, node map[string]any, t reflect.Type, path string) {
	props, _ := node["properties"].(map[string]any)
	if node["additionalProperties"] != false {
		w.problem(path, "a closed object: set additionalProperties to false")
	}
	required := map[string]bool{}
	if req, ok := node["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	fields := map[string]bool{}
	for _, f := range jsonFields(t) {
		fields[f.name] = true
		p, ok := props[f.name].(map[string]any)
		if !ok {
			w.problem(path+"."+f.name, "the field %s.%s is not in the schema: add the property (and to required unless omitempty)", t.Name(), f.name)
			continue
		}
		if !f.optional && !required[f.name] {
			w.problem(path+"."+f.name, "always written: list it in required")
		}
		if f.optional && required[f.name] {
			w.problem(path+"."+f.name, "omitempty: take it out of required")
		}
		w.walk(file, p, f.typ, path+"."+f.name)
	}
	var extra []string
	for name := range props {
		if !fields[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		w.problem(path+"."+name, "in the schema but not a field of %s: remove it or add the field", t.Name())
	}
}
