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

	"github.com/rpcstress/rpcstress/examples/mocknode"
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
	stdout, stderr io.Writer
	getenv         func(string) (string, bool)
	signals        <-chan os.Signal
}

func main() {
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	c := &cli{stdout: os.Stdout, stderr: os.Stderr, getenv: os.LookupEnv, signals: sig}
	os.Exit(c.main(context.Background(), os.Args[1:]))
}

// main dispatches on the verb; a first argument that is no verb is a profile to run.
func (c *cli) main(ctx context.Context, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "validate":
			return c.validate(args[1:])
		case "mocknode":
			return c.mocknode(ctx, args[1:])
		case "report":
			return c.report(ctx, args[1:])
		case "compare":
			return c.compare(args[1:])
		case "merge":
			return c.merge(ctx, args[1:])
		case "find-limit":
			return c.findLimit(ctx, args[1:])
		case "version", "--version", "-version":
			fmt.Fprintln(c.stdout, "rpcstress", version())
			return exitOK
		case "help", "-h", "--help", "-help":
			c.usage(c.stdout)
			return exitOK
		}
	}
	return c.run(ctx, args)
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprint(w, `rpcstress — live load tester for JSON-RPC nodes and HTTP JSON APIs

usage:
  rpcstress [flags] PROFILE.toml       run a profile (one line per second, a final report, a snapshot)
  rpcstress --demo [PROFILE.toml]      run against the embedded mock node on 127.0.0.1
  rpcstress validate PROFILE.toml      check a profile and print the resolved plan
  rpcstress report RUN.json            print the report of a saved run
                                       (--format text|json|csv|html, -o FILE)
  rpcstress compare A.json B.json …    runs side by side, stage by stage, deltas against the first
  rpcstress merge -o OUT.json A.json B.json …   combine runs of several machines (exact histogram merge)
  rpcstress find-limit PROFILE.toml   search the highest rate that meets an SLO (see: rpcstress find-limit -h)
  rpcstress mocknode [flags]           run the mock JSON-RPC node alone (see: rpcstress mocknode -h)
  rpcstress version

run flags:
`)
	fs, _ := newRunFlags(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit status: 0 completed; 1 a [thresholds] condition failed; 2 bad usage or profile; 3 the run could not start or save;
             128+N stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP) after saving the snapshot.
`)
}

// mocknode runs the mock node until a signal.
func (c *cli) mocknode(ctx context.Context, args []string) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.signals:
			cancel()
		case <-ctx.Done():
		}
	}()
	return mocknode.Main(ctx, args, c.stdout, c.stderr)
}
