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
	about   string // what it does, for its --help (wrapped there)
	// examples are command lines with what each does.
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

// commands are the verbs, in the order help lists them. The run itself comes first.
func commands() []command {
	return []command{
		runCommand(), validateCommand(), reportCommand(), compareCommand(), mergeCommand(),
		findLimitCommand(), harvestCommand(), mocknodeCommand(), completionCommand(), versionCommand(), helpCommand(),
	}
}

func validateCommand() command {
	return command{
		name: "validate", args: "PROFILE.toml", summary: "check a profile, print the resolved plan",
		about: "Checks a profile without sending anything and prints what a run would do: the target, " +
			"mode, headers (secrets hidden), the request mix with a sample body of each request " +
			"(templates rendered once), the plan stage by stage, and the thresholds. Every mistake " +
			"is reported at once, each with file:line, the field and how to fix it.",
		examples: [][2]string{
			{"rpcstress validate profiles/getBalance.toml", "check a bundled profile"},
		},
		argFiles: "toml", run: withoutFlags("validate", (*cli).validate),
	}
}

func reportCommand() command {
	return command{
		name: "report", args: "RUN.json", summary: "print the report of a saved run",
		about: "Prints the final report of a saved run (a snapshot) again, or exports it: json " +
			"(the summary), csv (the per-second timeline) or html (one page with charts).",
		examples: [][2]string{
			{"rpcstress report runs/getBalance-20261123T101500Z.json", "the text report"},
			{"rpcstress report run.json --format html -o run.html", "a page with charts"},
			{"rpcstress report run.json --format csv > seconds.csv", "the timeline for a sheet"},
		},
		flags: func() *flag.FlagSet { fs, _ := newReportFlags(); return fs }, argFiles: "json",
		run: func(c *cli, ctx context.Context, args []string) int { return c.report(ctx, args) },
	}
}

func compareCommand() command {
	return command{
		name: "compare", args: "A.json B.json …", summary: "runs side by side, deltas to the first",
		about: "Prints saved runs side by side, stage by stage and in total, each number with its " +
			"change against the first run, judged better or worse.",
		examples: [][2]string{
			{"rpcstress compare before.json after.json", "did the change help?"},
		},
		argFiles: "json", run: withoutFlags("compare", (*cli).compare),
	}
}

func mergeCommand() command {
	return command{
		name: "merge", args: "-o OUT.json A.json …", summary: "combine runs of several machines",
		about: "Combines the snapshots of one plan run on several machines (--shard I/N) into one: " +
			"counts add up, latency histograms merge exactly, so percentiles are those of all " +
			"requests together.",
		examples: [][2]string{
			{"rpcstress merge -o all.json shard1.json shard2.json", "one snapshot of the whole run"},
		},
		flags: func() *flag.FlagSet { fs, _, _ := newMergeFlags(); return fs }, argFiles: "json",
		run: func(c *cli, ctx context.Context, args []string) int { return c.merge(ctx, args) },
	}
}

func findLimitCommand() command {
	return command{
		name: "find-limit", args: "PROFILE.toml", summary: "find the highest rate that meets an SLO",
		about: "Probes rising rates, then bisects, to find the highest rate the target serves " +
			"within an SLO (latency, rate-limited, failed and successful shares), and estimates " +
			"a rate limiter's rate and burst. The profile's [search] table sets the same knobs " +
			"as the flags; flags win.",
		examples: [][2]string{
			{"rpcstress find-limit --demo", "search the mock node (limited at 1000/s)"},
			{"rpcstress find-limit p.toml --p99 50ms --max-rate 5000/s", "an SLO and a ceiling"},
		},
		flags: func() *flag.FlagSet { fs, _ := newFindLimitFlags(); return fs }, argFiles: "toml",
		run: func(c *cli, ctx context.Context, args []string) int { return c.findLimit(ctx, args) },
	}
}

func mocknodeCommand() command {
	return command{
		name: "mocknode", args: "[flags]", summary: "run the mock JSON-RPC node alone",
		about: mocknode.About,
		examples: [][2]string{
			{"rpcstress mocknode --rate 1000/s --burst 60", "a node behind nginx-like limit_req"},
		},
		flags: func() *flag.FlagSet { return mocknode.Flags(new(mocknode.Config), new(string)) },
		run:   func(c *cli, ctx context.Context, args []string) int { return c.mocknode(ctx, args) },
	}
}

func completionCommand() command {
	return command{
		name: "completion", args: "bash|zsh|fish", summary: "print a shell completion script",
		about: "Prints a script that completes rpcstress's commands, flags and files in your shell.",
		examples: [][2]string{
			{"source <(rpcstress completion bash)", "bash, this shell (add it to ~/.bashrc)"},
			{"rpcstress completion zsh > \"${fpath[1]}/_rpcstress\"", "zsh, new shells"},
			{"rpcstress completion fish > ~/.config/fish/completions/rpcstress.fish", "fish"},
		},
		argWords: "bash zsh fish", run: withoutFlags("completion", (*cli).completion),
	}
}

func versionCommand() command {
	return command{
		name: "version", summary: "print the version", run: withoutFlags("version", (*cli).version),
	}
}

func helpCommand() command {
	return command{
		name: "help", args: "[COMMAND]", summary: "help for rpcstress or one command",
		argWords: "validate report compare merge find-limit mocknode completion version",
		run:      withoutFlags("help", (*cli).help),
	}
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

// withoutFlags is the run of a verb that has no flags, which gets only its arguments: the
// verb still reads -h and --help, and says that other flags are unknown instead of taking
// them for file names.
func withoutFlags(verb string, run func(c *cli, args []string) int) func(*cli, context.Context, []string) int {
	return func(c *cli, _ context.Context, args []string) int {
		pos, code, done := c.parseFlags(verb, flag.NewFlagSet("rpcstress "+verb, flag.ContinueOnError), args)
		if done {
			return code
		}
		return run(c, pos)
	}
}
