package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startNamed starts a copy of sleep under a name of its own (so a name is found once), for
// as long as the test runs; it returns the process.
func startNamed(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	src, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, name)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if len(args) == 0 {
		args = []string{"60"}
	}
	return startCmd(t, exec.Command(bin, args...))
}

// startCmd starts cmd and kills it (by its own pid) when the test ends.
func startCmd(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
	})
	waitComm(t, cmd.Process.Pid, filepath.Base(cmd.Path))
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
