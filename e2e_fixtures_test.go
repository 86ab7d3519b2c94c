package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/schema"
)

// What the end-to-end tests run rpcstress against and with (the mock node, profiles, files),
// and how they hold what it wrote: the snapshot's books, and the published schema.

// writeFile writes text to a file name (a path relative to dir, its folders made) in dir and
// returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startNode starts the mock node on a free loopback port for the test and returns it with its URL.
func startNode(t *testing.T, cfg mocknode.Config) (*mocknode.Node, string) {
	return nodetest.Start(t, cfg)
}

// writeProfile writes a profile with the given stages and request section against url.
func writeProfile(t *testing.T, url string, connections int, body string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), "p.toml", fmt.Sprintf("name = \"e2e\"\nurl = %q\ntimeout = \"2s\"\nconnections = %d\n%s\n", url, connections, body))
}

// stage is the TOML of one [[stage]] of a plan.
func stage(rate, duration string) string {
	return fmt.Sprintf("[[stage]]\nrate = %q\nduration = %q\n", rate, duration)
}

// getBalance is the request section most tests send: one Solana getBalance call.
const getBalance = `
[[request]]
method = "getBalance"
params = ["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]
`

// mustRun fails the test unless the run exited with code, wrote a snapshot whose books
// balance, and printed the invariant holding.
func mustRun(t *testing.T, r cliRun, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstderr: %s\nstdout: %s", r.code, code, r.stderr, r.stdout)
	}
	if r.snap == nil {
		t.Fatalf("no snapshot written\nstdout: %s", r.stdout)
	}
	if err := r.snap.Totals.CheckInvariant(); err != nil {
		t.Fatalf("invariant: %v", err)
	}
	if !strings.Contains(r.stdout, "Invariant ✓") {
		t.Errorf("the report does not show the invariant holding:\n%s", r.stdout)
	}
}

// setTimeout rewrites the timeout of a profile made by writeProfile.
func setTimeout(t *testing.T, path, timeout string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `timeout = "2s"`, fmt.Sprintf("timeout = %q", timeout), 1)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The published schemas, compiled once for all the tests of the package.
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

// loadRun reads a snapshot file rpcstress wrote, held against the schema as readSnapshot
// does, and checks that its books balance; a file that does not load ends the test.
func loadRun(t *testing.T, path string) *engine.Snapshot {
	t.Helper()
	s, err := readSnapshot(t, path)
	if err != nil {
		t.Fatalf("snapshot %s: %v", path, err)
	}
	if err := s.Totals.CheckInvariant(); err != nil {
		t.Errorf("snapshot %s: %v", path, err)
	}
	return s
}
