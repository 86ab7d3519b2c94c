//go:build unix

// Package outfiletest makes the special files the output tests write to: a small file system of
// their own to fill up for real, device nodes, and FIFOs with a reader that reads nothing.
package outfiletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Tmpfs mounts a tmpfs of size (mount's syntax: "200k") on a fresh folder and unmounts it when
// the test ends. It needs root (or CAP_SYS_ADMIN): elsewhere the test is skipped, unless the CI
// variable is set, where a skip would hide a check CI promises.
func Tmpfs(tb testing.TB, size string, options ...string) string {
	tb.Helper()
	dir := tb.TempDir()
	opts := "size=" + size
	for _, o := range options {
		opts += "," + o
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Getenv("CI") == "" {
			tb.Skipf("cannot mount a tmpfs (needs root): %v: %s", err, out)
		}
		tb.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	tb.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			tb.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// Fill takes all the free space of the file system holding dir, with a file named name there.
func Fill(tb testing.TB, dir, name string) {
	tb.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			return // full
		}
	}
}

// Mknod makes a device node at path (mode: unix.S_IFCHR or unix.S_IFBLK, with major and minor:
// 1, 3 is a copy of /dev/null, 1, 7 of /dev/full). It needs root: elsewhere the test is skipped,
// unless CI is set.
func Mknod(tb testing.TB, path string, mode uint32, major, minor uint32) {
	tb.Helper()
	if err := unix.Mknod(path, mode|0o666, int(unix.Mkdev(major, minor))); err != nil {
		if os.Getenv("CI") == "" {
			tb.Skipf("cannot make a device node (needs root): %v", err)
		}
		tb.Fatalf("mknod %s: %v", path, err)
	}
}

// Mkfifo makes a FIFO (a named pipe) at path. Every unix file system a test writes to has
// them, so a failure stops the test rather than skipping it.
func Mkfifo(tb testing.TB, path string) {
	tb.Helper()
	if err := unix.Mkfifo(path, 0o644); err != nil {
		tb.Fatalf("mkfifo %s: %v", path, err)
	}
}

// IdleReader opens the FIFO at path for reading without waiting for a writer and reads
// nothing until the test does: a writer's open succeeds, and what fits the pipe's buffer is
// written. It is closed when the test ends.
func IdleReader(tb testing.TB, path string) *os.File {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		tb.Fatalf("open the FIFO %s: %v", path, err)
	}
	tb.Cleanup(func() { f.Close() })
	return f
}

// Paths makes, in a fresh folder, one path of each kind an output is pointed at in tests, and
// returns the folder: run.json (a regular file holding "old\n"), readonly.json (the same with
// mode 0444), adir (a directory), fifo (a FIFO) and link.json (a symbolic link to run.json).
func Paths(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	for _, f := range []struct {
		name string
		mode os.FileMode
	}{{"run.json", 0o644}, {"readonly.json", 0o444}} {
		if err := os.WriteFile(at(f.name), []byte("old\n"), 0o600); err != nil {
			tb.Fatal(err)
		}
		if err := os.Chmod(at(f.name), f.mode); err != nil { // the mode as asked, whatever the umask
			tb.Fatal(err)
		}
	}
	if err := os.Mkdir(at("adir"), 0o755); err != nil {
		tb.Fatal(err)
	}
	Mkfifo(tb, at("fifo"))
	if err := os.Symlink("run.json", at("link.json")); err != nil {
		tb.Fatal(err)
	}
	return dir
}
