// Package nodetest starts the mock node (examples/mocknode) for a test: the well-behaved target
// of the engine's and the end-to-end tests.
package nodetest

import (
	"context"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Start starts a node with cfg on a free loopback port for the rest of the test and returns it
// with its URL.
func Start(t testing.TB, cfg mocknode.Config) (*mocknode.Node, string) {
	t.Helper()
	n, addr, err := mocknode.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return n, "http://" + addr + "/"
}
