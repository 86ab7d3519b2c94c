package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// startDemo starts the embedded mock node of --demo on 127.0.0.1, set up by the profile's
// [demo] table, aims o at it unless --url named a target, and says where it listens. The
// caller closes the node.
func (c *cli) startDemo(ctx context.Context, p *profiles.Profile, o *profiles.Overrides) (*mocknode.Node, error) {
	n, addr, err := mocknode.Start(ctx, "127.0.0.1:0", demoNodeConfig(p.Demo))
	if err != nil {
		return nil, fmt.Errorf("starting the demo node: %w", err)
	}
	if o.URL == "" {
		o.URL = "http://" + addr + "/"
	}
	_ = textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("demo: mock node on http://%s (%s)", addr, n.Config()), c.textWidth())
	return n, nil
}

// demoNodeConfig maps a profile's [demo] table onto the mock node.
func demoNodeConfig(d profiles.DemoNode) mocknode.Config {
	return mocknode.Config{
		Rate: mocknode.Rate(d.Rate), Burst: d.Burst, NoDelay: d.NoDelay, Latency: d.Latency, Jitter: d.Jitter,
		Capacity: mocknode.Rate(d.Capacity), StallEvery: d.StallEvery, StallFor: d.StallFor,
	}
}

// printNodeCount says what the demo node itself counted after the run, status by status: the
// ground truth beside rpcstress's own report.
func (c *cli) printNodeCount(n *mocknode.Node) {
	st := n.Stats()
	codes := make([]string, 0, len(st.Status))
	for code := range st.Status {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for i, code := range codes {
		codes[i] = fmt.Sprintf("%s: %d", code, st.Status[code])
	}
	_ = textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("demo: the mock node itself counted %d answers (%s)",
		st.Requests, strings.Join(codes, ", ")), c.textWidth())
}
