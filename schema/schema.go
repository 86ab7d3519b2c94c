// Package schema publishes the JSON Schemas (draft 2020-12) of the files rpcstress writes for
// other programs, the contract of anyone who scripts around them (jq, Python):
//
//   - snapshot.v1.json: a run's snapshot, "schema": "rpcstress.snapshot/v1";
//   - summary.v1.json: `rpcstress report --format json`, "schema": "rpcstress.summary/v1"
//     (it takes its definitions from snapshot.v1.json).
//
// The Go code here is for tests: Validate checks a document written by rpcstress against its
// schema, and CheckType holds a Go type against the schema's definition of it, so a field
// added to the types without the schema fails a test. rpcstress itself never imports it.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schemas' files, as published in the repository.
var (
	//go:embed snapshot.v1.json
	snapshotV1 []byte
	//go:embed summary.v1.json
	summaryV1 []byte
)

// Files are the schemas by file name, as a $ref names them.
func Files() map[string][]byte {
	return map[string][]byte{"snapshot.v1.json": snapshotV1, "summary.v1.json": summaryV1}
}

// baseURL is where the schemas' $id place them; a $ref between them resolves against it.
const baseURL = "https://github.com/rpcstress/rpcstress/schema/"

// Kind names a file format rpcstress writes.
type Kind string

// The formats with a schema.
const (
	Snapshot Kind = "snapshot.v1.json"
	Summary  Kind = "summary.v1.json"
)

// Schemas are the compiled schemas, ready to validate documents.
type Schemas struct {
	c      *jsonschema.Compiler
	byKind map[Kind]*jsonschema.Schema
}

// Compile compiles every schema, with formats (date-time) asserted, not only annotated.
func Compile() (*Schemas, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for name, text := range Files() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		if err := c.AddResource(baseURL+name, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
	}
	s := &Schemas{c: c, byKind: map[Kind]*jsonschema.Schema{}}
	for _, k := range []Kind{Snapshot, Summary} {
		sch, err := c.Compile(baseURL + string(k))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", k, err)
		}
		s.byKind[k] = sch
	}
	return s, nil
}

// Validate checks a JSON document against the schema of its kind; the error says where and
// what, one line per violation.
func (s *Schemas) Validate(k Kind, doc []byte) error {
	sch, ok := s.byKind[k]
	if !ok {
		return fmt.Errorf("no schema %q", k)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%s: %w", k, err)
	}
	return nil
}

// ValidateAt checks a JSON document against one definition of a schema ("/$defs/header"),
// for a part of a file that has its own Go type (the resolved profile).
func (s *Schemas) ValidateAt(k Kind, ptr string, doc []byte) error {
	sch, err := s.c.Compile(baseURL + string(k) + "#" + ptr)
	if err != nil {
		return fmt.Errorf("schema %s#%s: %w", k, ptr, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%s#%s: %w", k, ptr, err)
	}
	return nil
}

// decode parses a schema file into plain JSON values, for CheckType's walk.
func decode(text []byte) (map[string]any, error) {
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}
