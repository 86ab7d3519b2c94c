package main

import (
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// textWidth is how wide text output may be, in terminal cells: the terminal's width when
// standard output is one (a wider terminal gives long messages more room), else
// textfmt.DefaultWidth, 80: a pipe, a file or a CI log has no width to ask, and 80 columns read
// everywhere.
func (c *cli) textWidth() int {
	f, ok := c.stdout.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return textfmt.DefaultWidth
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		return textfmt.DefaultWidth
	}
	return w
}

// stderrWidth is the width of the terminal standard error writes to; false when it is no
// terminal (a pipe, a log file, a test), where an error stays one line for grep and scripts.
func (c *cli) stderrWidth() (int, bool) {
	f, ok := c.stderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0, false
	}
	w, _, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 {
		return textfmt.DefaultWidth, true
	}
	return w, true
}
