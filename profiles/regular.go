package profiles

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// notRegularFix is the way out for a profile, or a file it names, that is kind.
func notRegularFix(kind string) string {
	if kind == "a directory" {
		return "name a file in it"
	}
	return "rpcstress reads files whole when the profile loads, and would wait on it for input: save the content to a regular file and name that"
}

// notRegularError is the error for path, which is kind; what says what the path is for, e.g.
// "profile p.toml: " or `"body.json" `.
func notRegularError(what, kind string) error {
	return &fileError{msg: fmt.Sprintf("%sis %s, not a regular file: %s", what, kind, notRegularFix(kind)), fixed: true}
}

// notRegular says what a file is when it is not a regular file ("a pipe (FIFO)"), or "".
func notRegular(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return ""
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a terminal or other character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// checkRegular refuses what is not a regular file before it is opened: opening a FIFO waits
// for a writer, and reading a pipe or a terminal (/dev/stdin is a link to one) waits for input
// that may never come, which hung `validate` and runs deaf to Ctrl-C. Symbolic links are
// followed: what counts is the file they lead to. name is the path as the user wrote it (the
// message names it), p where it was looked for. A stat error is left to the open that
// follows, which words it.
func checkRegular(name, p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return nil
	}
	kind := notRegular(info.Mode())
	if kind == "" {
		return nil
	}
	return notRegularError(fmt.Sprintf("%q ", name), kind)
}

// fileProblem is the message of err, an error reading a file a profile names, with fix
// appended, unless the error carries its own fix (a file that is not a regular file: "put the
// file next to the profile" would not help).
func fileProblem(err error, fix string) string {
	var fe *fileError
	if errors.As(err, &fe) && fe.fixed {
		return err.Error()
	}
	return err.Error() + ": " + fix
}
