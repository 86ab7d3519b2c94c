//go:build unix

// Package outfiletest makes the special files the output tests write to: a small file system of
// their own to fill up for real, and device nodes.
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
