//go:build unix

package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// write checks path and writes data there, as a command does around its work.
func write(t *testing.T, ctx context.Context, path string, data []byte) error {
	t.Helper()
	target, err := Check(path)
	if err != nil {
		t.Fatalf("check %s: %v", path, err)
	}
	return target.Write(ctx, data)
}

// TestWriteKeepsModeAndOwner: replacing a file keeps its permissions (before: it became 0600)
// and, as root, its owner; no temporary file is left beside it.
func TestWriteKeepsModeAndOwner(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	mustWrite(t, path, 0o640)
	root := os.Geteuid() == 0
	if root {
		must(t, os.Chown(path, 4321, 4321))
	}
	must(t, write(t, t.Context(), path, []byte("new\n")))
	fi, err := os.Stat(path)
	must(t, err)
	if fi.Mode() != 0o640 {
		t.Errorf("mode %s, want -rw-r-----", fi.Mode())
	}
	var st unix.Stat_t
	must(t, unix.Stat(path, &st))
	if root && (st.Uid != 4321 || st.Gid != 4321) {
		t.Errorf("owner %d:%d, want 4321:4321", st.Uid, st.Gid)
	}
	assertContent(t, path, "new\n")
	assertAlone(t, dir)
}

// TestWriteFollowsSymlink: the file a link points to is replaced; the link stays a link.
func TestWriteFollowsSymlink(t *testing.T) {
	dir := outfiletest.Paths(t)
	link := filepath.Join(dir, "link.json") // to run.json
	must(t, write(t, t.Context(), link, []byte("new\n")))
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	assertContent(t, filepath.Join(dir, "run.json"), "new\n")
}

// TestWriteThroughDevices: a copy of /dev/null takes the data and stays a device (before: it
// became a regular file); a copy of /dev/full fails with its error and stays a device.
func TestWriteThroughDevices(t *testing.T) {
	dir := t.TempDir()
	null, full := filepath.Join(dir, "mynull"), filepath.Join(dir, "myfull")
	outfiletest.Mknod(t, null, unix.S_IFCHR, 1, 3)
	outfiletest.Mknod(t, full, unix.S_IFCHR, 1, 7)
	must(t, write(t, t.Context(), null, []byte("snapshot\n")))
	err := write(t, t.Context(), full, []byte("snapshot\n"))
	if !errors.Is(err, unix.ENOSPC) || !strings.Contains(err.Error(), "writing a character device: no space left on device") {
		t.Errorf("/dev/full copy: %v", err)
	}
	for _, p := range []string{null, full} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a character device: %v %v", p, fi.Mode(), err)
		}
	}
	assertAlone(t, dir, "mynull", "myfull")
}

// TestWriteFIFO: a FIFO with a reader gets the data through and stays a FIFO; without a reader
// the write fails at once instead of hanging; a reader that takes nothing fails it at the
// deadline.
func TestWriteFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	outfiletest.Mkfifo(t, path)
	target, err := Check(path)
	must(t, err)

	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path) // blocks until the writer opens
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	// The reader's open may not have happened yet: the no-reader error is the signal to retry.
	big := strings.Repeat("x", 1<<20) // over the pipe's buffer: the write waits on the reader
	deadline := time.Now().Add(5 * time.Second)
	for err = target.Write(t.Context(), []byte(big)); err != nil && strings.Contains(err.Error(), "no reader") && time.Now().Before(deadline); err = target.Write(t.Context(), []byte(big)) {
		time.Sleep(5 * time.Millisecond)
	}
	must(t, err)
	if s := <-got; s != big {
		t.Errorf("the reader got %d bytes, want %d", len(s), len(big))
	}

	start := time.Now()
	err = target.Write(t.Context(), []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "is a FIFO (named pipe) with no reader: start the reader first") {
		t.Errorf("no reader: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("no reader: the write took %s", d)
	}

	outfiletest.IdleReader(t, path)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	err = target.Write(ctx, []byte(big))
	if err == nil || !strings.Contains(err.Error(), "its reader did not take it within") {
		t.Errorf("a stalled reader: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a stalled reader: the write took %s", d)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("no longer a FIFO: %v %v", fi.Mode(), err)
	}
}

// TestWriteRechecks: a path checked as a regular file that has become a FIFO by the end of the
// run is written through, never renamed over.
func TestWriteRechecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	mustWrite(t, path, 0o644)
	target, err := Check(path)
	must(t, err)
	must(t, os.Remove(path))
	outfiletest.Mkfifo(t, path)
	if err := target.Write(t.Context(), []byte("x")); err == nil || !strings.Contains(err.Error(), "no reader") {
		t.Errorf("error %v", err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

// TestReplaceFailingWriterKeepsOld: a write that fails half way (a full disk, injected) leaves
// the old file whole and no temporary file.
func TestReplaceFailingWriterKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	mustWrite(t, path, 0o644)
	err := replace(path, func(w io.Writer) error {
		if _, err := w.Write([]byte("half of a sn")); err != nil {
			return err
		}
		return &os.PathError{Op: "write", Path: "tmp", Err: unix.ENOSPC}
	})
	if !errors.Is(err, unix.ENOSPC) || err.Error() != "writing: no space left on device" {
		t.Errorf("error %v", err)
	}
	assertContent(t, path, "old\n")
	assertAlone(t, dir)
}

// TestWriteDiskFull: on a real full file system the write fails with ENOSPC and the old file
// stays whole.
func TestWriteDiskFull(t *testing.T) {
	dir := outfiletest.Tmpfs(t, "64k")
	path := filepath.Join(dir, "run.json")
	mustWrite(t, path, 0o644)
	outfiletest.Fill(t, dir, "filler")
	err := write(t, t.Context(), path, []byte(strings.Repeat("x", 64<<10)))
	if !errors.Is(err, unix.ENOSPC) {
		t.Errorf("error %v, want no space left on device", err)
	}
	assertContent(t, path, "old\n")
	assertAlone(t, dir, "run.json", "filler")
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Errorf("%s holds %q (%v), want %q", path, b, err, want)
	}
}

// assertAlone fails when dir holds files other than names (default: run.json).
func assertAlone(t *testing.T, dir string, names ...string) {
	t.Helper()
	if len(names) == 0 {
		names = []string{"run.json"}
	}
	entries, err := os.ReadDir(dir)
	must(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Errorf("%s holds %v, want only %v", dir, got, names)
	}
}

// TestWriteThroughProcFd: /dev/stdout on a pipe is a link to /proc/self/fd/1, which names no
// path ("pipe:[…]"); the kernel follows it, so the data goes down the pipe.
func TestWriteThroughProcFd(t *testing.T) {
	r, w, err := os.Pipe()
	must(t, err)
	defer r.Close()
	defer w.Close()
	path := fmt.Sprintf("/proc/self/fd/%d", w.Fd())
	if _, err := os.Lstat(path); err != nil {
		t.Skipf("no /proc/self/fd here: %v", err)
	}
	target, err := Check(path)
	if err != nil || target.Kind != FIFO {
		t.Fatalf("%s, %v: want a FIFO", target.Kind, err)
	}
	must(t, target.Write(t.Context(), []byte("snapshot\n")))
	w.Close()
	b, err := io.ReadAll(r)
	if err != nil || string(b) != "snapshot\n" {
		t.Errorf("read %q, %v", b, err)
	}
}
