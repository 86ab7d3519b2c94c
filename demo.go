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
// [demo] table and aims o at it unless --url named a target. A profile of targets side by
// side gets a node per target (each its own, all set up alike), unless --url names the
// targets. The caller checks the overrides, then says where the nodes listen (announce): a
// bad flag is then the only thing printed, not a node that never served. The caller closes
// the nodes.
func (c *cli) startDemo(ctx context.Context, p *profiles.Profile, o *profiles.Overrides) (demoNodes, error) {
	names := []string{""}
	if len(p.Config.Targets) > 0 && len(o.Targets) == 0 && o.URL == "" {
		names = names[:0]
		for _, t := range p.Config.Targets {
			names = append(names, t.Name)
		}
	}
	var nodes demoNodes
	for _, name := range names {
		n, addr, err := mocknode.Start(ctx, "127.0.0.1:0", demoNodeConfig(p.Demo))
		if err != nil {
			nodes.Close()
			return nil, fmt.Errorf("starting the demo node: %w", err)
		}
		nodes = append(nodes, demoNode{name: name, node: n, addr: addr})
		url := "http://" + addr + "/"
		switch {
		case name != "":
			o.Targets = append(o.Targets, profiles.TargetURL{Name: name, URL: url})
		case o.URL == "" && len(o.Targets) == 0:
			o.URL = url
		}
	}
	return nodes, nil
}

// applyOverrides applies the flags o to p, with --demo's mock nodes started first (o then aims
// at them) and announced only once the flags and the profile agree; the caller closes the
// nodes. On failure nothing was announced, the nodes are closed, and code is the exit code.
func (c *cli) applyOverrides(ctx context.Context, demo bool, p *profiles.Profile, o profiles.Overrides) (demoNodes, int, error) {
	var nodes demoNodes
	if demo {
		var err error
		if nodes, err = c.startDemo(ctx, p, &o); err != nil {
			return nil, exitRunFailed, err
		}
	}
	if err := p.Apply(o); err != nil {
		nodes.Close()
		return nil, exitUsage, err
	}
	c.announce(nodes)
	return nodes, 0, nil
}

// announce says where each node listens and how it is set up.
func (c *cli) announce(nodes demoNodes) {
	for _, n := range nodes {
		_ = textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("demo: mock node %son http://%s (%s)", nameWord(n.name), n.addr, n.node.Config()), c.textWidth())
	}
}

// demoNode is a mock node of --demo, and the target it stands for ("" for the one target).
type demoNode struct {
	name string
	node *mocknode.Node
	addr string // host:port it listens on
}

// demoNodes are the mock nodes of --demo.
type demoNodes []demoNode

// Close stops every node.
func (d demoNodes) Close() {
	for _, n := range d {
		n.node.Close()
	}
}

// nameWord is a target's name followed by a space, for a sentence; "" for none.
func nameWord(name string) string {
	if name == "" {
		return ""
	}
	return name + " "
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
func (c *cli) printNodeCount(d demoNode) {
	st := d.node.Stats()
	codes := make([]string, 0, len(st.Status))
	for code := range st.Status {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for i, code := range codes {
		codes[i] = fmt.Sprintf("%s: %d", code, st.Status[code])
	}
	_ = textfmt.WriteParagraph(c.stdout, "", "  ", fmt.Sprintf("demo: the mock node %sitself counted %d answers (%s)",
		nameWord(d.name), st.Requests, strings.Join(codes, ", ")), c.textWidth())
}
