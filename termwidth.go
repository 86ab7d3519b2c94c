package main

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// textWidth is how wide text output may be, in terminal cells: the terminal's width when
// standard output is one (a wider terminal gives long messages more room), else
// textfmt.DefaultWidth, 80: a pipe, a file or a CI log has no width to ask, and 80 columns read
// everywhere.
func (c *cli) textWidth() int {
	if w, ok := terminalWidth(c.stdout); ok {
		return w
	}
	return textfmt.DefaultWidth
}

// stderrWidth is the width of the terminal standard error writes to; false when it is no
// terminal (a pipe, a log file, a test), where an error stays one line for grep and scripts.
func (c *cli) stderrWidth() (int, bool) { return terminalWidth(c.stderr) }

// terminalWidth is the width of the terminal w writes to (textfmt.DefaultWidth when it will
// not say); false when w is no terminal.
func terminalWidth(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0, false
	}
	cols, _, err := term.GetSize(f.Fd())
	if err != nil || cols <= 0 {
		return textfmt.DefaultWidth, true
	}
	return cols, true
}
