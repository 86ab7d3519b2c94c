package main

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/profiles"
)

// TestE2ESideBySideEngineWiring: a loaded profile whose Config names two targets (as the
// profile's [[target]] tables will) runs through the command's own path, headless: both
// nodes get every request, and the snapshot written holds both targets, each with the node's
// own count.
func TestE2ESideBySideEngineWiring(t *testing.T) {
	t.Parallel()
	nodeA, urlA := nodetest.Start(t, mocknode.Config{})
	nodeB, urlB := nodetest.Start(t, mocknode.Config{})
	p, err := profiles.Load(writeProfile(t, urlA, 4, getBalance+stage("100/s", "1s")), func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(profiles.Overrides{}); err != nil { // as run does
		t.Fatal(err)
	}
	p.Config.Targets = []engine.Target{{Name: "a", URL: urlA, DisplayURL: urlA}, {Name: "b", URL: urlB, DisplayURL: urlB}}
	out := filepath.Join(t.TempDir(), "run.json")
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	f := newRunFlags(fs)
	if err := fs.Parse([]string{"--headless", "--out", out}); err != nil {
		t.Fatal(err)
	}
	c, stdout, stderr := cliSetup{}.newCLI()
	if code := c.execute(context.Background(), p, f, nil); code != exitOK {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", code, stderr, stdout)
	}
	snap, err := readSnapshot(t, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Targets) != 2 {
		t.Fatalf("%d targets in the snapshot", len(snap.Targets))
	}
	for i, n := range []*mocknode.Node{nodeA, nodeB} {
		tr := snap.Targets[i]
		if err := tr.Totals.CheckInvariant(); err != nil || tr.Totals.Completed != 100 || n.Stats().Requests != 100 {
			t.Errorf("target %s: completed %d, node %d (%v)", tr.Name, tr.Totals.Completed, n.Stats().Requests, err)
		}
	}
	if !strings.Contains(stdout.String(), "snapshot: "+out) {
		t.Errorf("the run did not say where its snapshot went:\n%s", stdout)
	}
}
