package cliflag

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Width is what help text is wrapped to: it fits an 80-column terminal, and a wider one
// reads it as well.
const Width = 80

// nameColumn is the widest "  --name VALUE" that keeps its description on the same line;
// longer ones put it on the next.
const nameColumn = 24

// Flag is one flag as help and shell completion show it.
type Flag struct {
	Name  string // without dashes
	Value string // what its value is called ("FILE", "RATE"); "" for a flag that takes none
	Usage string // the description, with the `quotes` of the value name removed
}

// Flags lists fs's flags in name order.
func Flags(fs *flag.FlagSet) []Flag {
	var out []Flag
	fs.VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		value := ""
		if !isBool(f) {
			value = valueName(f)
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "0s" && f.DefValue != "false" &&
			!strings.Contains(usage, "default") {
			usage += " (default " + f.DefValue + ")"
		}
		out = append(out, Flag{Name: f.Name, Value: value, Usage: usage})
	})
	return out
}

// PrintFlags writes fs's flags, one "--name VALUE  description" each, the descriptions
// wrapped to Width.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	for _, f := range Flags(fs) {
		head := "  " + Dashed(f.Name)
		if f.Value != "" {
			head += " " + f.Value
		}
		text := Wrap(f.Usage, Width-nameColumn-2)
		lines := strings.Split(text, "\n")
		if len(head) > nameColumn {
			fmt.Fprintln(w, head)
		} else {
			fmt.Fprintf(w, "%-*s  %s\n", nameColumn, head, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%*s  %s\n", nameColumn, "", l)
		}
	}
}

// Dashed is a flag as people type it: -o for a one-letter name, --name for the others (the
// flag package reads either form).
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Wrap wraps text to width terminal cells, at spaces where it can and inside a word (a long
// path or URL) where it must; never after the dashes of a flag (ansi.Wrap breaks at every
// hyphen, so they are swapped for non-breaking ones while it works).
func Wrap(text string, width int) string {
	const nb = "\u2011" // NON-BREAKING HYPHEN, one cell wide like "-"
	text = strings.ReplaceAll(text, "-", nb)
	return strings.ReplaceAll(ansi.Wrap(text, width, ""), nb, "-")
}
