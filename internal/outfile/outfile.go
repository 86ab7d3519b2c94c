// Package outfile is the one owner of every file rpcstress writes at a path the user names (or
// that rpcstress names itself): run and find-limit snapshots, periodic and `s` saves, merge -o,
// report -o, --cpuprofile and --memprofile. Its rules:
//
//   - A path is checked before any work (Check), so a bad --out fails before a request is sent,
//     not after the run with its numbers lost; Write checks again, as the file may have changed.
//   - A regular file (or a new one) is replaced atomically: a temporary file beside it, synced,
//     renamed over it, keeping the old file's permissions (and, as root, its owner). A failed
//     write (a full disk) leaves the old file whole.
//   - A character device (/dev/null, /dev/stdout, a terminal) or a FIFO is written through,
//     never renamed over: renaming over /dev/null as root would break it for the whole machine.
//     A FIFO is opened without blocking, so one with no reader fails at once with a word on
//     what to do instead of hanging the end of a run; a reader that stops reading fails the
//     write after a bounded wait.
//   - A symbolic link is followed: the rules apply to the file it points to, which is what gets
//     replaced (the link stays a link). A link to nothing is refused: creating a file at the end
//     of a dangling link is rarely what was meant.
//   - Refused: a directory, a block device (a disk), a socket; a file no one may write (mode
//     0444), even as root, whose permissions are a person's "do not touch"; a file or a folder
//     this user may not write; a folder that does not exist (only rpcstress's own default folder,
//     runs/, is created: CheckDefault).
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Kind is what a path is, which decides how it is written.
type Kind int

// The kinds of path rpcstress writes to.
const (
	New     Kind = iota // nothing there yet: created atomically
	Regular             // a regular file: replaced atomically
	Device              // a character device (/dev/null, a terminal): written through
	FIFO                // a named pipe: written through, if a reader is there
)

// String is how a kind reads in messages.
func (k Kind) String() string {
	switch k {
	case New:
		return "a new file"
	case Regular:
		return "a regular file"
	case Device:
		return "a character device"
	case FIFO:
		return "a FIFO (named pipe)"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Target is a checked output path. Keep it from the check before the work to the write after.
type Target struct {
	Path string // as named: what messages show
	Kind Kind

	real  string // Path with symbolic links resolved: where the bytes go
	mkdir bool   // create the folder (rpcstress's own default path)
}

// Stored reports whether the target keeps what is written (a file), unlike a device or a FIFO,
// which pass it on: only a stored target can hold periodic snapshots.
func (t Target) Stored() bool { return t.Kind == New || t.Kind == Regular }

// Check checks that path can be written: its folder exists and may be written, and it is not a
// directory, a disk, a socket or a read-only file. The error says what is wrong and how to fix
// it; it does not repeat path, which the caller puts first (with its flag).
func Check(path string) (Target, error) { return check(path, false) }

// CheckDefault is Check for a path rpcstress chose itself (runs/…): its folder is created.
func CheckDefault(path string) (Target, error) { return check(path, true) }

func check(path string, mkdir bool) (Target, error) {
	t := Target{Path: path, real: path, mkdir: mkdir}
	if path == "" {
		return t, errors.New("no file named")
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		// Nothing there, or a file where a folder should be: checkFolder says which.
		t.Kind = New
		return t, checkFolder(filepath.Dir(path), mkdir)
	}
	if err != nil {
		return t, fmt.Errorf("cannot use it: %w", plain(err))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = follow(&t); err != nil {
			return t, err
		}
	}
	if t.Kind, err = kindOf(fi.Mode()); err != nil {
		return t, err
	}
	if err := checkWritable(t.real, fi.Mode()); err != nil {
		return t, err
	}
	if t.Kind == Regular {
		if ownOutput(fi) {
			return t, errors.New("is where rpcstress's own output is redirected: name another file (or, for the snapshot on standard output, pipe it: --out /dev/stdout | …)")
		}
		// Replacing means creating a temporary file beside it and renaming it.
		return t, checkFolder(filepath.Dir(t.real), false)
	}
	return t, nil
}

// follow looks through the symbolic link t.Path and returns what is at its end. The kernel
// follows it, so /dev/stdout works for a terminal or a pipe, whose /proc/self/fd link names no
// path; a regular file at the end is replaced where it really is (t.real): the link stays.
func follow(t *Target) (fs.FileInfo, error) {
	fi, err := os.Stat(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		to, _ := os.Readlink(t.Path)
		return nil, fmt.Errorf("is a symbolic link to %s, which does not exist: create that file first, or remove the link", to)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot follow the symbolic link: %w", plain(err))
	}
	if !fi.Mode().IsRegular() {
		return fi, nil
	}
	if t.real, err = filepath.EvalSymlinks(t.Path); err != nil {
		return nil, fmt.Errorf("cannot follow the symbolic link: %w", plain(err))
	}
	return fi, nil
}

// ownOutput reports whether fi is the file this process's standard output or error is
// redirected to (`--out run.json > run.json`, `--out /dev/stdout > run.json`): replacing it would
// send the rest of that output to a file no longer there.
func ownOutput(fi fs.FileInfo) bool {
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if st, err := f.Stat(); err == nil && os.SameFile(fi, st) {
			return true
		}
	}
	return false
}

// kindOf sorts what is at a path into what rpcstress writes and what it refuses.
func kindOf(m fs.FileMode) (Kind, error) {
	const only = "rpcstress writes to regular files, character devices (/dev/null) and FIFOs"
	switch {
	case m.IsRegular():
		return Regular, nil
	case m&fs.ModeCharDevice != 0:
		return Device, nil
	case m&fs.ModeNamedPipe != 0:
		return FIFO, nil
	case m.IsDir():
		return 0, errors.New("is a directory: name a file inside it instead")
	case m&fs.ModeDevice != 0:
		return 0, fmt.Errorf("is a block device (a disk, whose contents a snapshot would destroy): %s", only)
	case m&fs.ModeSocket != 0:
		return 0, fmt.Errorf("is a socket: %s", only)
	}
	return 0, fmt.Errorf("is not a regular file (%s): %s", m.Type(), only)
}

// checkWritable refuses a file no one may write, even when root could, and a file this user may
// not write.
func checkWritable(path string, m fs.FileMode) error {
	if m.Perm()&0o222 == 0 {
		return fmt.Errorf("is read-only (%s), so rpcstress will not replace it: make it writable (chmod u+w %s) or choose another file", m.Perm(), path)
	}
	if err := canWrite(path); err != nil {
		return fmt.Errorf("is not writable for this user (%w): choose another file", plain(err))
	}
	return nil
}

// checkFolder checks that files can be created in dir, creating it first if mkdir.
func checkFolder(dir string, mkdir bool) error {
	if mkdir {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the folder %s: %w", dir, plain(err))
		}
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("the folder %s does not exist: create it first (mkdir -p %s) or choose another path", dir, dir)
	case err != nil:
		return fmt.Errorf("cannot use the folder %s: %w", dir, plain(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder: choose another path", dir)
	}
	if err := canWrite(dir); err != nil {
		return fmt.Errorf("cannot create files in the folder %s (%w): choose another path", dir, plain(err))
	}
	return nil
}

// plain drops the operation and path an *fs.PathError carries ("open x.json.tmp123: …"): the
// messages here name the path the user gave, not rpcstress's temporary files.
func plain(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
