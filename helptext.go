package main

import (
	_ "embed"
	"fmt"
	"strings"
)

// helpText is help.txt: what each verb's help says in words, kept apart from the code that
// dispatches and parses so that the prose reads and edits as prose.
//
//go:embed help.txt
var helpText string

// verbHelp is what help says of one verb beyond its usage line and flags.
type verbHelp struct {
	about    string      // a paragraph, wrapped when shown
	examples [][2]string // command lines with what each does
}

// parseHelp reads help text: a "[verb]" line opens a verb's section ("[rpcstress]" is the
// run); unindented lines are its paragraph, joined by spaces; an indented "# what it does"
// line and the indented command line under it are an example. Lines that begin with "#"
// outside the examples, and blank lines, are for the reader of the file.
func parseHelp(text string) (map[string]verbHelp, error) {
	out := map[string]verbHelp{}
	verb, inVerb := "", false
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			verb, inVerb = strings.TrimSuffix(strings.TrimPrefix(line, "["), "]"), true
			if verb == "rpcstress" {
				verb = "" // the run, as the command table names it
			}
			out[verb] = verbHelp{}
		case !inVerb:
			return nil, fmt.Errorf("help.txt:%d: %q stands before the first [verb]", i+1, line)
		case strings.HasPrefix(line, "  # ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  "):
			h := out[verb]
			h.examples = append(h.examples, [2]string{strings.TrimSpace(lines[i+1]), strings.TrimPrefix(line, "  # ")})
			out[verb] = h
			i++
		case !strings.HasPrefix(line, " "):
			h := out[verb]
			h.about = strings.TrimSpace(h.about + " " + line)
			out[verb] = h
		default:
			return nil, fmt.Errorf("help.txt:%d: %q is neither words, an example nor a [verb]", i+1, line)
		}
	}
	return out, nil
}
