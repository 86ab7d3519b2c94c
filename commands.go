package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/cliflag"
	"github.com/rpcstress/rpcstress/internal/suggest"
)

// command is one verb of the command line. The table of them (commands) is the one place
// that knows the verbs: dispatch, help, "did you mean" and the shell completion scripts all
// read it, so they never drift apart.
type command struct {
	name    string // "" is the run itself: rpcstress [flags] PROFILE.toml
	args    string // what follows the name in the usage line
	summary string // one line for the list of commands
	about   string // what it does, for its --help (wrapped there); from help.txt if not set
	// examples are command lines with what each does, from help.txt.
	examples [][2]string
	// flags builds the verb's flag set (nil: it takes none but -h); help and completion
	// list them.
	flags func() *flag.FlagSet
	// argFiles is what its arguments are, for shell completion: a file extension ("toml",
	// "json"), or a fixed list of words ("bash zsh fish").
	argFiles string
	argWords string
	run      func(c *cli, ctx context.Context, args []string) int
}

// commands are the verbs, in the order help lists them. The run itself comes first. What
// their help says in words is in help.txt.
func commands() []command {
	cmds := []command{
		runCommand(),
		withFlags(command{name: "validate", args: "PROFILE.toml", summary: "check a profile, print the resolved plan",
			argFiles: "toml"}, newValidateFlags, (*cli).validate),
		withFlags(command{name: "report", args: "RUN.json", summary: "print the report of a saved run",
			argFiles: "json"}, newReportFlags, (*cli).report),
		withoutFlags(command{name: "compare", args: "A.json B.json … | RUN.json", summary: "runs (or one run's targets) side by side",
			argFiles: "json"}, (*cli).compare),
		withFlags(command{name: "merge", args: "-o OUT.json A.json …", summary: "combine runs of several machines",
			argFiles: "json"}, newMergeFlags, (*cli).merge),
		withFlags(command{name: "find-limit", args: "PROFILE.toml", summary: "find the highest rate that meets an SLO",
			argFiles: "toml"}, newFindLimitFlags, (*cli).findLimit),
		withFlags(command{name: "harvest", args: "URL", summary: "read real parameters from a node into line files"},
			newHarvestFlags, (*cli).harvest),
		{name: "mocknode", args: "[flags]", summary: "run the mock JSON-RPC node alone", about: mocknode.About,
			flags: func() *flag.FlagSet { return mocknode.Flags(new(mocknode.Config), new(string)) }, run: (*cli).mocknode},
		withoutFlags(command{name: "completion", args: "bash|zsh|fish", summary: "print a shell completion script",
			argWords: "bash zsh fish"}, (*cli).completion),
		withoutFlags(command{name: "version", summary: "print the version"}, (*cli).version),
		withoutFlags(command{name: "help", args: "[COMMAND]", summary: "help for rpcstress or one command",
			argWords: "validate report compare merge find-limit harvest mocknode completion version"}, (*cli).help),
	}
	// The embedded text is held by TestHelpText: a mistake in it could only leave a help
	// without its words, never stop a command.
	texts, _ := parseHelp(helpText)
	for i := range cmds {
		h := texts[cmds[i].name]
		if cmds[i].about == "" {
			cmds[i].about = h.about
		}
		cmds[i].examples = h.examples
	}
	return cmds
}

// lookup finds the command named name; nil if there is none. The run ("") is never found.
func lookup(name string) *command {
	if name == "" {
		return nil
	}
	for _, cmd := range commands() {
		if cmd.name == name {
			return &cmd
		}
	}
	return nil
}

// verbNames are the names of the verbs, for "did you mean".
func verbNames() []string {
	var out []string
	for _, cmd := range commands() {
		if cmd.name != "" {
			out = append(out, cmd.name)
		}
	}
	return out
}

// notAVerb explains a first argument that is neither a verb nor a file: a mistyped verb
// (`rpcstress valdate x.toml`), or a profile named without its path. It returns nil for an
// argument that may be a profile, so that the run reports a missing file as it always has.
func notAVerb(arg string) error {
	if arg == "" || arg == "-" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, `./\`) {
		return nil // a flag, or a path: the run says what is wrong with it
	}
	if _, err := os.Stat(arg); err == nil {
		return nil // a profile file without an extension
	}
	if s := suggest.Closest(arg, verbNames()); s != "" {
		return fmt.Errorf("unknown command %q: did you mean %q?", arg, s)
	}
	return fmt.Errorf("%q is neither a command nor a profile file (a .toml file)", arg)
}

// parseFlags parses a verb's flags. done says the verb is over, with code: the help was
// asked for and printed, or the flags were wrong (said in one line, and where the flags are
// listed, as git and go do).
func (c *cli) parseFlags(name string, fs *flag.FlagSet, args []string) (pos []string, code int, done bool) {
	pos, err := cliflag.Parse(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.printHelp(name)
		return nil, exitOK, true
	case err != nil:
		c.fail(exitUsage, err)
		fmt.Fprintf(c.stderr, "%s --help for the flags\n", strings.TrimSpace("rpcstress "+name))
		return nil, exitUsage, true
	}
	return pos, 0, false
}

// verbFlagSet is an empty flag set for verb ("" for the run): it reports errors to its
// caller (parseFlags says them), and reads -h and --help.
func verbFlagSet(verb string) *flag.FlagSet {
	return flag.NewFlagSet(strings.TrimSpace("rpcstress "+verb), flag.ContinueOnError)
}

// withoutFlags is cmd, a verb that has no flags, running run with only its arguments: the
// verb still reads -h and --help, and says that other flags are unknown instead of taking
// them for file names.
func withoutFlags(cmd command, run func(c *cli, args []string) int) command {
	cmd.run = func(c *cli, _ context.Context, args []string) int {
		pos, code, done := c.parseFlags(cmd.name, verbFlagSet(cmd.name), args)
		if done {
			return code
		}
		return run(c, pos)
	}
	return cmd
}

// withFlags is cmd, a verb whose flags newFlags declares in a flag set (help and completion
// list them), running run: the command line is parsed (the help, or a flag error, ends the
// verb there), and run gets the values and the other arguments.
func withFlags[F any](cmd command, newFlags func(*flag.FlagSet) F, run func(c *cli, ctx context.Context, f F, args []string) int) command {
	cmd.flags = func() *flag.FlagSet {
		fs := verbFlagSet(cmd.name)
		newFlags(fs)
		return fs
	}
	cmd.run = func(c *cli, ctx context.Context, args []string) int {
		fs := verbFlagSet(cmd.name)
		f := newFlags(fs)
		pos, code, done := c.parseFlags(cmd.name, fs, args)
		if done {
			return code
		}
		return run(c, ctx, f, pos)
	}
	return cmd
}
