package watch

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
)

func TestResolve(t *testing.T) {
	pfs, err := procfs.NewDefaultFS()
	if err != nil {
		t.Skip("no /proc")
	}
	one := startNamed(t, "rpcswatch-one")
	long := startNamed(t, "rpcswatch-one-with-a-long-name")
	startNamed(t, "rpcswatch-two")
	startNamed(t, "rpcswatch-two")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "node.pid")
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(one.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.pid")
	if err := os.WriteFile(junk, []byte("not a pid\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone.pid")
	if err := os.WriteFile(gone, []byte("999999999"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid := strconv.Itoa(one.Process.Pid)
	for _, tc := range []struct {
		name, spec string
		wantPid    int
		wantErr    []string // each must be in the error; nil: no error
	}{
		// A pid names its process; the label is its name.
		{"pid", pid, one.Process.Pid, nil},
		// A name is found as pgrep -x finds it (the name is cut to 15 bytes by the kernel,
		// so the command's file name is looked at too).
		{"name", "rpcswatch-one", one.Process.Pid, nil},
		// A name longer than the 15 bytes the kernel keeps is found by its command.
		{"long name", "rpcswatch-one-with-a-long-name", long.Process.Pid, nil},
		// A pid file holds the pid (a trailing newline is fine).
		{"pid file", pidFile, one.Process.Pid, nil},
		// A name that fits two processes lists both and says how to pick one.
		{"ambiguous name", "rpcswatch-two", 0, []string{`2 processes are named "rpcswatch-two"`, "watch one by its pid or pid file"}},
		// A name nothing has.
		{"no such name", "rpcswatch-none", 0, []string{`no process named "rpcswatch-none" is running`, "give its pid or pid file"}},
		// A pid nothing has.
		{"no such pid", "999999999", 0, []string{"no process has pid 999999999", "ps -p 999999999"}},
		// A pid file that is not there.
		{"missing pid file", filepath.Join(dir, "missing.pid"), 0, []string{"pid file", "no such file"}},
		// A pid file that holds no pid.
		{"junk pid file", junk, 0, []string{`holds "not a pid", not a pid`}},
		// A pid file whose process has gone.
		{"stale pid file", gone, 0, []string{"says 999999999, but no process has pid 999999999"}},
		// Nothing at all.
		{"empty", " ", 0, []string{"is empty"}},
		// Pid 0 is not a process.
		{"pid 0", "0", 0, []string{`"0" is not a pid`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := resolve(pfs, Target{Spec: tc.spec}, os.Getpid())
			if tc.wantErr == nil {
				if err != nil || r.pid != tc.wantPid {
					t.Fatalf("got pid %d, %v; want %d", r.pid, err, tc.wantPid)
				}
				if r.name != filepath.Base(tc.spec) && r.name != "rpcswatch-one" || !strings.Contains(r.command, r.name+" 60") {
					t.Errorf("name %q command %q", r.name, r.command)
				}
				return
			}
			if err == nil {
				t.Fatalf("got pid %d, want an error", r.pid)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestResolveNeverSelf: a name never finds rpcstress itself (always watched as "self").
func TestResolveNeverSelf(t *testing.T) {
	pfs, err := procfs.NewDefaultFS()
	if err != nil {
		t.Skip("no /proc")
	}
	self, err := pfs.Self()
	if err != nil {
		t.Fatal(err)
	}
	comm, err := self.Comm()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := resolve(pfs, Target{Spec: comm}, os.Getpid()); err == nil && r.pid == os.Getpid() {
		t.Fatalf("%s found the test itself", comm)
	}
}
