//go:build unix

package engine

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/rpcstress/rpcstress/internal/errtest"
	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// TestWriteSnapshotSpecialFiles: a snapshot goes through a device or a FIFO and leaves it what
// it was; a symbolic link stays a link to the new snapshot; a read-only file, a directory and a
// missing folder are refused and left alone. Before, every one of them was renamed over.
func TestWriteSnapshotSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	outfiletest.Mknod(t, at("mynull"), unix.S_IFCHR, 1, 3)
	if err := unix.Mkfifo(at("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("real.json"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", at("link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("ro.json"), []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(at("adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The FIFO's reader is there before the write; it reads after (a small snapshot fits the
	// pipe's buffer).
	reader, err := os.OpenFile(at("fifo"), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	snap := &Snapshot{Schema: SnapshotSchema, Profile: []byte(`{"name":"x"}`), EndReason: "completed"}

	tests := []struct {
		path string
		err  string      // part of the refusal, else ""
		mode os.FileMode // the type the path keeps
	}{
		{at("mynull"), "", os.ModeDevice | os.ModeCharDevice},                      // a copy of /dev/null stays a device
		{at("fifo"), "", os.ModeNamedPipe},                                         // a FIFO with a reader stays a FIFO
		{at("link.json"), "", os.ModeSymlink},                                      // the link stays, its file is replaced
		{at("ro.json"), "is read-only", 0},                                         // 0444: refused, even as root
		{at("adir"), "is a directory", os.ModeDir},                                 // a directory: refused
		{at("nodir/run.json"), "the folder " + at("nodir") + " does not exist", 0}, // a missing folder is not made
	}
	for _, tt := range tests {
		if m := errtest.Mismatch(WriteSnapshot(tt.path, snap), tt.err); m != "" {
			t.Errorf("%s: %s", tt.path, m)
		}
		if fi, err := os.Lstat(tt.path); err == nil && fi.Mode().Type() != tt.mode {
			t.Errorf("%s is now %s, want %s", tt.path, fi.Mode().Type(), tt.mode)
		}
	}
	fromFIFO, err := io.ReadAll(reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{fromFIFO, readFile(t, at("real.json"))} {
		if _, err := DecodeSnapshot(b); err != nil {
			t.Errorf("not the snapshot: %v: %.40q", err, b)
		}
	}
	if b := readFile(t, at("ro.json")); string(b) != "old" {
		t.Errorf("the read-only file was changed: %q", b)
	}
	if _, err := os.Stat(at("nodir")); err == nil {
		t.Error("the missing folder was made")
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
