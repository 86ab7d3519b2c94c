package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestH2CMockNode: h2c against the mock node's --h2c counts every answer the node gave, on
// `connections` connections; against a node that speaks HTTP/1.1 alone, every request fails
// and an event says why.
func TestH2CMockNode(t *testing.T) {
	t.Run("h2c node", func(t *testing.T) {
		node, url := startNode(t, mocknode.Config{H2C: true, Latency: 20 * time.Millisecond})
		cfg := balanceConfig(url, engine.Stage{Rate: 300, Duration: time.Second})
		cfg.H2C, cfg.Connections, cfg.Streams = true, 2, 4
		snap := run(t, cfg)
		if err := snap.Totals.CheckInvariant(); err != nil {
			t.Fatal(err)
		}
		st := node.Stats()
		if tot := snap.Totals; tot.Completed != tot.Scheduled || tot.Status["200"] != st.Status["200"] || tot.Status["200"] != tot.Completed {
			t.Errorf("scheduled %d completed %d, 200s %d, the node answered %d", tot.Scheduled, tot.Completed, tot.Status["200"], st.Status["200"])
		}
		if snap.Totals.Connections.Dialed != 2 {
			t.Errorf("dialed %d, want the 2 connections", snap.Totals.Connections.Dialed)
		}
	})
	t.Run("HTTP/1.1 node", func(t *testing.T) {
		_, url := startNode(t, mocknode.Config{})
		cfg := balanceConfig(url, engine.Stage{Rate: 50, Duration: 200 * time.Millisecond})
		cfg.H2C, cfg.Connections = true, 2
		snap := run(t, cfg)
		// The node answers the preface with a 400 and closes: a connection that read it is
		// malformed, the others see the close (eof, reset), and none is an answer.
		if tot := snap.Totals; len(tot.Status) != 0 || tot.Errors["malformed"] == 0 || tot.Failed != tot.Completed {
			t.Errorf("statuses %v errors %v failed %d of %d, want every request failed, some malformed", tot.Status, tot.Errors, tot.Failed, tot.Completed)
		}
		said := 0
		for _, e := range snap.Events {
			if e.Kind == "http2" && strings.Contains(e.Detail, "answered in HTTP/1.1") {
				said++
			}
		}
		if said != 1 {
			t.Errorf("events %+v, want one saying the node answered in HTTP/1.1", snap.Events)
		}
	})
}
