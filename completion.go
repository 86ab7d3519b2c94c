package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rpcstress/rpcstress/internal/cliflag"
)

// completion is `rpcstress completion bash|zsh|fish`: a script, written from the command
// table and the real flag sets, so it never offers a flag that is gone or misses a new one.
func (c *cli) completion(args []string) int {
	shells := map[string]func(io.Writer, []shellCommand){"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}
	if len(args) != 1 {
		return c.fail(exitUsage, errors.New("usage: rpcstress completion bash|zsh|fish"))
	}
	write, ok := shells[args[0]]
	if !ok {
		return c.fail(exitUsage, fmt.Errorf("completion %s: use bash, zsh or fish", args[0]))
	}
	write(c.stdout, shellCommands())
	return exitOK
}

// shellCommand is what a completion script needs of a command.
type shellCommand struct {
	name, summary string
	flags         []cliflag.Flag // --help included
	ext           string         // its arguments are files with this extension
	words         []string       // or these words
}

// shellCommands reads the command table.
func shellCommands() []shellCommand {
	var out []shellCommand
	for _, cmd := range commands() {
		cc := shellCommand{name: cmd.name, summary: cmd.summary, ext: cmd.argFiles, words: strings.Fields(cmd.argWords)}
		if cmd.flags != nil {
			cc.flags = cliflag.Flags(cmd.flags())
		}
		cc.flags = append(cc.flags, cliflag.Flag{Name: "help", Usage: "show the help"})
		out = append(out, cc)
	}
	return out
}

// runLast puts the run (cmds[0], no verb) after the verbs, for a shell's case statement
// where its pattern, *, must come last.
func runLast(cmds []shellCommand) []shellCommand {
	return append(append([]shellCommand(nil), cmds[1:]...), cmds[0])
}

// takesFile reports a flag whose value is a file name.
func takesFile(f cliflag.Flag) bool { return f.Value == "FILE" }

// short is the first clause of a flag's description, for a completion menu.
func short(s string) string {
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if len(s) > 60 {
		s = strings.TrimSpace(s[:57]) + "..."
	}
	return s
}

// bashCompletion writes a bash completion function: verbs as the first word, each verb's
// flags after a -, files for flags taking a FILE, and the verb's files (.toml or .json).
func bashCompletion(w io.Writer, cmds []shellCommand) {
	var verbs []string
	for _, c := range cmds[1:] {
		verbs = append(verbs, c.name)
	}
	fmt.Fprintf(w, `# bash completion for rpcstress, written by "rpcstress completion bash" from
# its own commands and flags. Load it with: source <(rpcstress completion bash)
_rpcstress() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local verb="${COMP_WORDS[1]}" flags valued files ext words
    if [[ $COMP_CWORD -eq 1 ]]; then verb=""; fi
    case "$verb" in
`)
	for _, c := range runLast(cmds) {
		var flags, valued, files []string
		for _, f := range c.flags {
			flags = append(flags, cliflag.Dashed(f.Name))
			if f.Value != "" {
				valued = append(valued, cliflag.Dashed(f.Name))
			}
			if takesFile(f) {
				files = append(files, cliflag.Dashed(f.Name))
			}
		}
		pattern := c.name
		if pattern == "" {
			pattern = "*" // the run: no verb
		}
		fmt.Fprintf(w, "        %s)\n            flags=%q valued=%q files=%q ext=%q words=%q ;;\n",
			pattern, strings.Join(flags, " "), strings.Join(valued, " "), strings.Join(files, " "), c.ext, strings.Join(c.words, " "))
	}
	fmt.Fprintf(w, `    esac
    COMPREPLY=()
    if [[ " $valued " == *" $prev "* ]]; then
        if [[ " $files " == *" $prev "* ]]; then COMPREPLY=($(compgen -f -- "$cur")); fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    if [[ $COMP_CWORD -eq 1 ]]; then COMPREPLY=($(compgen -W %q -- "$cur")); fi
    if [[ -n $words ]]; then COMPREPLY+=($(compgen -W "$words" -- "$cur")); fi
    if [[ -n $ext ]]; then
        COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur") $(compgen -d -- "$cur"))
    fi
}
complete -o filenames -F _rpcstress rpcstress
`, strings.Join(verbs, " "))
}

// zshCompletion writes a zsh completion function on _arguments, to be put on $fpath as
// _rpcstress or sourced.
func zshCompletion(w io.Writer, cmds []shellCommand) {
	fmt.Fprint(w, `#compdef rpcstress
# zsh completion for rpcstress, written by "rpcstress completion zsh" from its own
# commands and flags. Put it on $fpath as _rpcstress, or: source <(rpcstress completion zsh)
_rpcstress() {
  local -a verbs
  verbs=(
`)
	for _, c := range cmds[1:] {
		fmt.Fprintf(w, "    %s\n", zshQuote(c.name+":"+c.summary))
	}
	fmt.Fprint(w, "  )\n  case $words[2] in\n")
	for _, c := range runLast(cmds) {
		pattern := c.name
		if pattern == "" {
			pattern = "*"
		}
		fmt.Fprintf(w, "    %s)\n", pattern)
		if c.name == "" {
			fmt.Fprint(w, "      if (( CURRENT == 2 )); then _describe -t commands command verbs; fi\n")
		}
		fmt.Fprint(w, "      _arguments")
		for _, f := range c.flags {
			spec := cliflag.Dashed(f.Name) + "[" + zshDescription(short(f.Usage)) + "]"
			switch {
			case takesFile(f):
				spec += ":" + strings.ToLower(f.Value) + ":_files"
			case f.Value != "":
				spec += ":" + strings.ToLower(f.Value) + ": "
			}
			fmt.Fprintf(w, " \\\n        %s", zshQuote(spec))
		}
		switch {
		case c.ext != "":
			fmt.Fprintf(w, " \\\n        %s", zshQuote("*:file:_files -g '*."+c.ext+"'"))
		case len(c.words) > 0:
			fmt.Fprintf(w, " \\\n        %s", zshQuote("*:word:("+strings.Join(c.words, " ")+")"))
		}
		fmt.Fprint(w, "\n      ;;\n")
	}
	fmt.Fprint(w, `  esac
}
if [[ $funcstack[1] == _rpcstress ]]; then
  _rpcstress "$@"
else
  compdef _rpcstress rpcstress
fi
`)
}

// zshDescription makes text safe inside an _arguments [description].
func zshDescription(s string) string {
	return strings.NewReplacer("[", "(", "]", ")", ":", ",", "\\", "").Replace(s)
}

// zshQuote quotes s for zsh (and any POSIX shell) in single quotes.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishCompletion writes fish complete commands: the verbs while none is given, each verb's
// flags and files after it, the run's flags when no verb is given.
func fishCompletion(w io.Writer, cmds []shellCommand) {
	var verbs []string
	for _, c := range cmds[1:] {
		verbs = append(verbs, c.name)
	}
	noVerb := "not __fish_seen_subcommand_from " + strings.Join(verbs, " ")
	fmt.Fprint(w, `# fish completion for rpcstress, written by "rpcstress completion fish" from its own
# commands and flags. Save it as ~/.config/fish/completions/rpcstress.fish
complete -c rpcstress -f
`)
	for _, c := range cmds[1:] {
		fmt.Fprintf(w, "complete -c rpcstress -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range cmds {
		cond := noVerb
		if c.name != "" {
			cond = "__fish_seen_subcommand_from " + c.name
		}
		for _, f := range c.flags {
			how := ""
			switch {
			case takesFile(f):
				how = " -r -F"
			case f.Value != "":
				how = " -x"
			}
			opt := "-l " + f.Name
			if len(f.Name) == 1 {
				opt = "-s " + f.Name
			}
			fmt.Fprintf(w, "complete -c rpcstress -n %s %s%s -d %s\n", fishQuote(cond), opt, how, fishQuote(short(f.Usage)))
		}
		switch {
		case c.ext != "":
			fmt.Fprintf(w, "complete -c rpcstress -n %s -k -a %s\n", fishQuote(cond), fishQuote("(__fish_complete_suffix ."+c.ext+")"))
		case len(c.words) > 0:
			fmt.Fprintf(w, "complete -c rpcstress -n %s -a %s\n", fishQuote(cond), fishQuote(strings.Join(c.words, " ")))
		}
	}
}

// fishQuote quotes s for fish in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
