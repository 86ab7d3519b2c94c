package watch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// watchAsHelper is the helper process of TestAnotherUsersProcess: it watches pid as the user
// it runs as and prints what New says.
func watchAsHelper(pid string) {
	_, warnings, err := New(context.Background(), Config{Procs: []Target{{Spec: pid, Where: "--watch-pid"}}})
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	if err != nil {
		fmt.Println("error:", err)
	}
}

// nobody is the uid and gid of the user "nobody" on Debian.
const nobody = 65534

// TestAnotherUsersProcess watches, for real, a process of another user: as root, the test
// runs a copy of itself as nobody watching a process of root's; as anyone else, it watches
// pid 1 (root's). /proc refuses the process's disk I/O (its open files it counts for anyone,
// from Linux 6.2): the watch goes on with
// CPU, memory and threads, and says so in words, naming the owner and what to do.
func TestAnotherUsersProcess(t *testing.T) {
	var out string
	if os.Getuid() == 0 {
		sleeper := startNamed(t, "rpcswatch-root")
		out = runAsNobody(t, strconv.Itoa(sleeper.Process.Pid))
	} else {
		if st, err := os.Stat("/proc/1"); err != nil || st.Sys().(*syscall.Stat_t).Uid == uint32(os.Getuid()) {
			t.Skip("pid 1 is not another user's here")
		}
		_, warnings, err := New(context.Background(), Config{Procs: []Target{{Spec: "1", Where: "--watch-pid"}}})
		if err != nil {
			t.Fatal(err)
		}
		out = "warning: " + strings.Join(warnings, "\nwarning: ")
	}
	t.Logf("%s", out)
	for _, want := range []string{"warning: --watch-pid", "its disk I/O is not shown",
		"/proc lets only root read them", "permission denied", "its CPU, memory and threads are", "run rpcstress as that user or as root"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "error:") {
		t.Errorf("watching another user's process failed:\n%s", out)
	}
}

// runAsNobody runs a copy of the test binary as nobody, watching pid, and returns its output.
func runAsNobody(t *testing.T, pid string) string {
	t.Helper()
	// The go tool's build folder is root's alone: nobody runs a copy from a folder it may enter.
	dir, err := os.MkdirTemp("", "rpcswatch")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "watch.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = []string{helperEnv + "=watch", "RPCSTRESS_WATCH_PID=" + pid, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the helper as nobody: %v\n%s", err, b)
	}
	return string(b)
}
