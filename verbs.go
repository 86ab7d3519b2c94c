package main

import (
	"errors"
	"fmt"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
)

// validate checks a profile and prints the resolved plan.
func (c *cli) validate(args []string) int {
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress validate PROFILE.toml"))
	}
	p, err := profiles.Load(args[0], c.getenv)
	if err != nil {
		return c.fail(exitUsage, err)
	}
	p.Describe(c.stdout)
	fmt.Fprintf(c.stdout, "%s: ok\n", args[0])
	return exitOK
}

// report prints the text report of a saved run.
func (c *cli) report(args []string) int {
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress report RUN.json"))
	}
	s, err := engine.ReadSnapshot(args[0])
	if err != nil {
		return c.fail(exitUsage, err)
	}
	if err := tui.WriteReport(c.stdout, s); err != nil {
		return c.fail(exitRunFailed, err)
	}
	return exitOK
}
