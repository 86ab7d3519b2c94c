package main

import (
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
)

// keyInput is the terminal the dashboard reads its keys from, chosen as Bubble Tea chooses it
// (standard input when that is a terminal, else /dev/tty), telling onEnd when reading it ends
// or fails: the terminal is gone. Bubble Tea's reader stops silently at EOF, so without this a
// dashboard waiting for a key would wait forever, and a run nobody can see or stop any more
// would go on. It stays an *os.File underneath, so Bubble Tea still puts it in raw mode and
// can cancel its reads.
type keyInput struct {
	*os.File
	opened bool // we opened /dev/tty, so we close it
	once   sync.Once
	onEnd  func()
}

// openKeyInput returns the dashboard's key input, or nil when no terminal can be opened (Bubble
// Tea then reports why).
func openKeyInput() *keyInput {
	if term.IsTerminal(os.Stdin.Fd()) {
		return &keyInput{File: os.Stdin}
	}
	tty, _, err := tea.OpenTTY()
	if err != nil {
		return nil
	}
	return &keyInput{File: tty, opened: true}
}

// Read reads keys; the first error (EOF: the terminal hung up; EIO: its other end closed) is
// the end of the input.
func (in *keyInput) Read(b []byte) (int, error) {
	n, err := in.File.Read(b)
	if err != nil && in.onEnd != nil {
		in.once.Do(in.onEnd)
	}
	return n, err
}

func (in *keyInput) close() {
	if in.opened {
		_ = in.File.Close()
	}
}
