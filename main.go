// Command rpcstress is a live load tester for JSON-RPC nodes and HTTP JSON APIs: an open-loop
// engine with honest (coordinated-omission corrected) latency, status codes, 429 rate-limit
// answers and JSON-RPC errors, saved as JSON snapshots. See README.md.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes. 1 is kept for failed thresholds (a run that worked but missed its goals).
const (
	exitOK          = 0
	exitThresholds  = 1
	exitUsage       = 2 // bad flags, bad profile, bad input
	exitRunFailed   = 3 // the run could not start or its snapshot could not be written
	exitSignalsBase = 128
)

// cli is one invocation: its streams, environment and signals, injectable for tests.
type cli struct {
	stdin          io.Reader // targets streamed with --targets -
	stdout, stderr io.Writer
	getenv         func(string) (string, bool)
	signals        <-chan os.Signal
}

func main() {
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.LookupEnv, signals: sig}
	os.Exit(c.main(context.Background(), os.Args[1:]))
}

// main dispatches on the verb; a first argument that is no verb is a profile to run.
func (c *cli) main(ctx context.Context, args []string) int {
	if len(args) > 0 {
		if cmd := lookup(args[0]); cmd != nil {
			return cmd.run(c, ctx, args[1:])
		}
		switch args[0] {
		case "--version", "-version":
			return lookup("version").run(c, ctx, args[1:])
		}
		if err := notAVerb(args[0]); err != nil {
			c.fail(exitUsage, err)
			fmt.Fprintln(c.stderr, "rpcstress --help for the commands")
			return exitUsage
		}
	}
	return runCommand().run(c, ctx, args)
}
