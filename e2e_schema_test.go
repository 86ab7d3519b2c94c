package main

import (
	"os"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/schema"
)

var (
	schemasOnce sync.Once
	schemas     *schema.Schemas
	schemasErr  error
)

// checkSchema holds a document rpcstress wrote against its published schema
// (schema/snapshot.v1.json, schema/summary.v1.json).
func checkSchema(t *testing.T, k schema.Kind, doc []byte, what string) {
	t.Helper()
	schemasOnce.Do(func() { schemas, schemasErr = schema.Compile() })
	if schemasErr != nil {
		t.Fatal(schemasErr)
	}
	if err := schemas.Validate(k, doc); err != nil {
		t.Errorf("%s does not match its schema: %v", what, err)
	}
}

// readSnapshot reads a snapshot the CLI wrote, as engine.ReadSnapshot does, after holding the
// file against schema/snapshot.v1.json: every snapshot the end-to-end tests see passes
// through here, so each way of running (stages, closed loop, signals, the dashboard,
// find-limit, merge) is checked against the contract.
func readSnapshot(t *testing.T, path string) (*engine.Snapshot, error) {
	t.Helper()
	if data, err := os.ReadFile(path); err == nil {
		checkSchema(t, schema.Snapshot, data, path)
	}
	return engine.ReadSnapshot(path)
}
