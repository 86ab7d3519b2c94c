package watch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/proctest"
)

// helperEnv makes the test binary a helper process instead of running the tests: "burn"
// spins on a CPU, "write" writes to a file and syncs it, over and over, until killed.
const helperEnv = "RPCSTRESS_WATCH_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "burn":
		burn()
	case "write":
		writeLoop(os.Getenv("RPCSTRESS_WATCH_FILE"))
	case "watch":
		watchAsHelper(os.Getenv("RPCSTRESS_WATCH_PID"))
	}
	os.Exit(0)
}

// burn spins until killed.
func burn() {
	x := 0
	for {
		x++
		if x < 0 {
			fmt.Println(x)
		}
	}
}

// writeLoop writes 64 KiB and syncs it, ten times a second, until killed.
func writeLoop(path string) {
	f, err := os.Create(path)
	if err != nil {
		os.Exit(3)
	}
	buf := make([]byte, 64<<10)
	for {
		_, _ = f.Write(buf)
		_ = f.Sync()
		time.Sleep(100 * time.Millisecond)
	}
}

// startHelper runs the test binary as a helper process of the given mode.
func startHelper(t *testing.T, mode string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + mode}, env...)...)
	cmd.Path = os.Args[0]
	return startCmd(t, cmd)
}

// helperName is the name a helper process goes by: the test binary's.
func helperName() string { return filepath.Base(os.Args[0]) }

// startNamed starts a copy of sleep under a name of its own (so a name is found once), for
// as long as the test runs; it returns the process.
func startNamed(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	src, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	if len(args) == 0 {
		args = []string{"60"}
	}
	return startCmd(t, exec.Command(copyProgram(t, src, t.TempDir(), name), args...))
}

// copyProgram copies the program src to dir/name, executable by anyone, and returns its path:
// a program under a name of its own, or where another user may run it.
func copyProgram(t *testing.T, src, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, name)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// startCmd starts cmd (killed when the test ends, reaped as soon as it exits, so its pid is
// gone then) and waits until it goes by its own name.
func startCmd(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	p, err := proctest.Start(t, cmd)
	if err != nil {
		t.Fatal(err)
	}
	waitComm(t, p.Cmd.Process.Pid, filepath.Base(cmd.Path))
	return cmd
}

// waitComm waits until the process's name is name (right after the fork it is still the
// parent's).
func waitComm(t *testing.T, pid int, name string) {
	t.Helper()
	want := name
	if len(want) > 15 {
		want = want[:15] // the kernel keeps 15 bytes of a name
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if err == nil && strings.TrimSpace(string(b)) == want {
			return
		}
	}
	t.Fatalf("pid %d never took the name %s", pid, name)
}

// statCPU reads a process's CPU seconds straight from /proc/PID/stat, with no code of the
// package (the ground truth shares none with what it checks): utime and stime are the 14th
// and 15th fields, in clock ticks of 1/100 s (USER_HZ on Linux).
func statCPU(t *testing.T, pid int) float64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // from field 3, the state
	utime, err1 := strconv.ParseFloat(fields[14-3], 64)
	stime, err2 := strconv.ParseFloat(fields[15-3], 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("stat of %d: %q", pid, s)
	}
	return (utime + stime) / 100
}
