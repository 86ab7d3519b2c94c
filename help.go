package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/cliflag"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// runCommand is the run itself, `rpcstress [flags] PROFILE.toml`, as help lists it.
func runCommand() command {
	return withFlags(command{args: "[flags] PROFILE.toml", summary: "run a profile", argFiles: "toml"}, newRunFlags, (*cli).run)
}

// usage is the top-level help: what rpcstress is, its commands, examples, the run's flags
// and the exit status, within 80 columns.
func (c *cli) usage(w io.Writer) {
	fmt.Fprint(w, "rpcstress: a live load tester for JSON-RPC nodes and HTTP JSON APIs\n\nusage:\n")
	cmds := commands()
	for _, cmd := range cmds {
		line := usageLine(cmd)
		if utf8.RuneCountInString(line) > usageColumn {
			fmt.Fprintf(w, "  %s\n", line)
			line = ""
		}
		summary := strings.Split(cliflag.Wrap(cmd.summary, cliflag.Width-usageColumn-4), "\n")
		for i, s := range summary {
			fmt.Fprintf(w, "  %-*s  %s\n", usageColumn, line, s)
			if i == 0 {
				line = ""
			}
		}
	}
	run := cmds[0]
	fmt.Fprintf(w, "\n%s\n", cliflag.Wrap(run.about, cliflag.Width))
	printExamples(w, run.examples)
	fmt.Fprint(w, "\nflags of a run:\n")
	cliflag.PrintFlags(w, run.flags())
	fmt.Fprintf(w, "\n%s\n\n%s\n", cliflag.Wrap(exitStatusText, cliflag.Width),
		"rpcstress COMMAND --help shows a command's flags and examples.")
}

// usageColumn is the width of the usage lines in the list of commands.
const usageColumn = 36

// usageLine is how a command is called: "rpcstress validate PROFILE.toml".
func usageLine(cmd command) string {
	return strings.Join(strings.Fields("rpcstress "+cmd.name+" "+cmd.args), " ")
}

// exitStatusText is the exit codes, as the README's table has them.
const exitStatusText = "exit status: 0 completed; 1 a [thresholds] condition failed; 2 bad " +
	"usage or profile; 3 the run could not start or save; 128+N stopped by signal N (130 " +
	"SIGINT, 143 SIGTERM, 129 SIGHUP) after saving the snapshot."

// printHelp writes a command's help to standard output: usage, what it does, examples,
// flags.
func (c *cli) printHelp(name string) {
	if name == "" {
		c.usage(c.stdout)
		return
	}
	cmd := lookup(name)
	if cmd == nil {
		return
	}
	w := c.stdout
	fmt.Fprintf(w, "usage: %s\n", usageLine(*cmd))
	about := cmd.about
	if about == "" {
		about = strings.ToUpper(cmd.summary[:1]) + cmd.summary[1:] + "."
	}
	fmt.Fprintf(w, "\n%s\n", cliflag.Wrap(about, cliflag.Width))
	printExamples(w, cmd.examples)
	if cmd.flags != nil {
		if fs := cmd.flags(); len(cliflag.Flags(fs)) > 0 {
			fmt.Fprint(w, "\nflags:\n")
			cliflag.PrintFlags(w, fs)
		}
	}
}

// printExamples writes examples as a comment saying what each does above the command line,
// so each line can be copied as it is.
func printExamples(w io.Writer, examples [][2]string) {
	if len(examples) == 0 {
		return
	}
	fmt.Fprint(w, "\nexamples:\n")
	for _, e := range examples {
		fmt.Fprintf(w, "  # %s\n  %s\n", e[1], e[0])
	}
}

// help is `rpcstress help [COMMAND]`.
func (c *cli) help(args []string) int {
	switch {
	case len(args) == 0:
		c.usage(c.stdout)
		return exitOK
	case len(args) > 1:
		return c.fail(exitUsage, errors.New("usage: rpcstress help [COMMAND]"))
	case lookup(args[0]) == nil:
		if s := suggest.Closest(args[0], verbNames()); s != "" {
			return c.fail(exitUsage, fmt.Errorf("unknown command %q: did you mean %q?", args[0], s))
		}
		return c.fail(exitUsage, fmt.Errorf("unknown command %q: rpcstress --help lists them", args[0]))
	}
	c.printHelp(args[0])
	return exitOK
}

// version is `rpcstress version`.
func (c *cli) version(args []string) int {
	if len(args) > 0 {
		return c.fail(exitUsage, fmt.Errorf("version takes no arguments: got %q", args))
	}
	fmt.Fprintln(c.stdout, "rpcstress", version())
	return exitOK
}

// mocknode runs the mock node until a signal.
func (c *cli) mocknode(ctx context.Context, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			c.printHelp("mocknode") // the help with examples; mocknode.Main's own has none
			return exitOK
		}
	}
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
