//go:build unix

package outfile

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/rpcstress/rpcstress/internal/errtest"
	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// TestCheck: every kind of path is sorted into written (and how) or refused (with what to do),
// before any work.
func TestCheck(t *testing.T) {
	dir := outfiletest.Paths(t)
	at := func(name string) string { return filepath.Join(dir, name) }
	must(t, os.Symlink("adir", at("link-to-dir")))
	must(t, os.Symlink("missing.json", at("dangling.json")))
	must(t, os.Symlink("loop-b", at("loop-a")))
	must(t, os.Symlink("loop-a", at("loop-b")))
	ln, err := net.Listen("unix", at("sock"))
	must(t, err)
	defer ln.Close()

	tests := []struct {
		path string
		kind Kind   // when accepted
		real string // where the bytes go, when accepted
		err  string // part of the refusal, else ""
	}{
		{at("new.json"), New, at("new.json"), ""},                                           // nothing there yet: created
		{at("run.json"), Regular, at("run.json"), ""},                                       // an old run: replaced
		{at("link.json"), Regular, at("run.json"), ""},                                      // a link: the file it points to is written
		{at("fifo"), FIFO, at("fifo"), ""},                                                  // a named pipe: written through
		{"/dev/null", Device, "/dev/null", ""},                                              // a character device: written through
		{at("nodir/x.json"), 0, "", "the folder " + at("nodir") + " does not exist"},        // a missing folder is not made
		{at("run.json/x.json"), 0, "", at("run.json") + " is not a folder"},                 // a file where a folder should be
		{at("adir"), 0, "", "is a directory: name a file inside it instead"},                // a directory
		{at("link-to-dir"), 0, "", "is a directory"},                                        // a link to a directory
		{at("readonly.json"), 0, "", "is read-only (-r--r--r--)"},                           // 0444: refused, even for root
		{at("dangling.json"), 0, "", "symbolic link to missing.json, which does not exist"}, // a link to nothing
		{at("loop-a"), 0, "", "cannot follow the symbolic link"},                            // a link loop
		{at("sock"), 0, "", "is a socket"},                                                  // a socket
		{"", 0, "", "no file named"},                                                        // nothing given
	}
	for _, tt := range tests {
		got, err := Check(tt.path)
		switch m := errtest.Mismatch(err, tt.err); {
		case m != "":
			t.Errorf("%s: %s", tt.path, m)
		case tt.err == "" && (got.Kind != tt.kind || got.real != tt.real):
			t.Errorf("%s: %s at %s, want %s at %s", tt.path, got.Kind, got.real, tt.kind, tt.real)
		}
	}
}

// TestCheckReadOnlyFolder: a folder on a read-only file system is refused before any work, also
// for root (whom file modes do not stop).
func TestCheckReadOnlyFolder(t *testing.T) {
	dir := outfiletest.Tmpfs(t, "64k", "ro")
	_, err := Check(filepath.Join(dir, "run.json"))
	if err == nil || !strings.Contains(err.Error(), "cannot create files in the folder "+dir+" (read-only file system)") {
		t.Errorf("error %v", err)
	}
}

// TestCheckSpecialNodes: a block device (a disk) is refused; a character device node anywhere
// is written through.
func TestCheckSpecialNodes(t *testing.T) {
	dir := t.TempDir()
	outfiletest.Mknod(t, filepath.Join(dir, "disk"), unix.S_IFBLK, 7, 0)
	outfiletest.Mknod(t, filepath.Join(dir, "mynull"), unix.S_IFCHR, 1, 3)
	if _, err := Check(filepath.Join(dir, "disk")); err == nil || !strings.Contains(err.Error(), "is a block device") {
		t.Errorf("block device: %v", err)
	}
	if got, err := Check(filepath.Join(dir, "mynull")); err != nil || got.Kind != Device {
		t.Errorf("character device: %s, %v", got.Kind, err)
	}
}

// TestCheckDefaultMakesFolder: rpcstress's own path (runs/…) gets its folder; a path the user
// names does not (TestCheck).
func TestCheckDefaultMakesFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs", "p-20261123T101500Z.json")
	got, err := CheckDefault(path)
	if err != nil || got.Kind != New {
		t.Fatalf("%s, %v", got.Kind, err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		t.Errorf("folder not made: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	must(t, os.WriteFile(path, []byte("old\n"), 0o600))
	must(t, os.Chmod(path, mode))
}

// TestCheckOwnOutput: the file this process's standard output is redirected to (`--out
// /dev/stdout > run.json`) is refused: replacing it would lose the rest of that output.
func TestCheckOwnOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	f, err := os.Create(path)
	must(t, err)
	defer f.Close()
	stdout := os.Stdout
	os.Stdout = f // the process's output, redirected to path
	_, err = Check(path)
	os.Stdout = stdout
	if err == nil || !strings.Contains(err.Error(), "is where rpcstress's own output is redirected") {
		t.Errorf("error %v", err)
	}
}
