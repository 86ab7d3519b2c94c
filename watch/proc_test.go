package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/procfs"
	"github.com/rpcstress/rpcstress/engine"
)

// TestProcCPUAgainstProc: a process spinning on a CPU reads, over a window, the CPU share
// /proc/PID/stat gives over the same window (read with no code of the package), within 3
// points: the clock ticks (1/100 s) of two readings at each end.
func TestProcCPUAgainstProc(t *testing.T) {
	cmd := startHelper(t, "burn")
	pid := cmd.Process.Pid
	p, err := procfs.NewProc(pid)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past the start-up
	g0, t0 := statCPU(t, pid), time.Now()
	r, note, err := newProcReader(p, pid, t0)
	if err != nil || note != "" {
		t.Fatalf("newProcReader: %v, note %q", err, note)
	}
	// Windows of other lengths than a second: a rate divided by the wrong time shows.
	for i, window := range []time.Duration{1500 * time.Millisecond, 700 * time.Millisecond} {
		time.Sleep(window)
		t1 := time.Now()
		use, err := r.read(t1)
		g1 := statCPU(t, pid)
		if err != nil || use == nil {
			t.Fatalf("read: %v, %v", use, err)
		}
		want := (g1 - g0) / t1.Sub(t0).Seconds() * 100
		t.Logf("window %d (%s): rpcstress reads %.1f%% CPU, /proc says %.1f%%", i+1, window, use.CPU, want)
		if math.Abs(use.CPU-want) > 3 {
			t.Errorf("CPU %.1f%%, /proc says %.1f%% over the same window", use.CPU, want)
		}
		if use.CPU < 20 {
			t.Errorf("a spinning process read at %.1f%% CPU", use.CPU)
		}
		g0, t0 = g1, t1
	}
}

// TestProcFigures: memory, threads, open files and disk writes agree with /proc's own files
// for them (statm, status, fd/, io), read here by hand.
func TestProcFigures(t *testing.T) {
	file := filepath.Join(t.TempDir(), "out")
	cmd := startHelper(t, "write", "RPCSTRESS_WATCH_FILE="+file)
	pid := cmd.Process.Pid
	dir := "/proc/" + strconv.Itoa(pid)
	p, err := procfs.NewProc(pid)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	w0, t0 := ioField(t, dir, "write_bytes"), time.Now()
	r, _, err := newProcReader(p, pid, t0)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	t1 := time.Now()
	use, err := r.read(t1)
	w1 := ioField(t, dir, "write_bytes")
	if err != nil || use == nil {
		t.Fatal(use, err)
	}
	statm := strings.Fields(readFile(t, dir+"/statm"))
	pages, _ := strconv.ParseInt(statm[1], 10, 64)
	if rss := pages * int64(os.Getpagesize()); math.Abs(float64(use.RSS-rss)) > 0.1*float64(rss) {
		t.Errorf("RSS %d, statm says %d", use.RSS, rss)
	}
	if want := statusField(t, dir, "Threads"); use.Threads != want {
		t.Errorf("threads %d, status says %d", use.Threads, want)
	}
	fds, err := os.ReadDir(dir + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	if use.FDs == nil || *use.FDs != len(fds) {
		t.Errorf("fds %v, fd/ has %d", use.FDs, len(fds))
	}
	want := float64(w1-w0) / t1.Sub(t0).Seconds()
	if use.WriteBps == nil || use.ReadBps == nil {
		t.Fatalf("no disk I/O read: %+v", use)
	}
	t.Logf("writes %.0f B/s, io says %.0f B/s", *use.WriteBps, want)
	if want == 0 || math.Abs(*use.WriteBps-want) > 0.2*want {
		t.Errorf("writes %.0f B/s, /proc/PID/io says %.0f B/s over the same window", *use.WriteBps, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ioField is a field of /proc/PID/io.
func ioField(t *testing.T, dir, name string) uint64 {
	t.Helper()
	for _, line := range strings.Split(readFile(t, dir+"/io"), "\n") {
		if v, ok := strings.CutPrefix(line, name+": "); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in %s/io", name, dir)
	return 0
}

// statusField is a number of /proc/PID/status.
func statusField(t *testing.T, dir, name string) int {
	t.Helper()
	for _, line := range strings.Split(readFile(t, dir+"/status"), "\n") {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in %s/status", name, dir)
	return 0
}

// fakeProc is a process as a test wants /proc to show it.
type fakeProc struct {
	stat           procfs.ProcStat
	statErr        error
	fds            int
	fdErr, ioErr   error
	io             procfs.ProcIO
	statCalls, ios int
}

func (f *fakeProc) Stat() (procfs.ProcStat, error) { f.statCalls++; return f.stat, f.statErr }
func (f *fakeProc) FileDescriptorsLen() (int, error) {
	return f.fds, f.fdErr
}
func (f *fakeProc) IO() (procfs.ProcIO, error) { f.ios++; return f.io, f.ioErr }

// TestProcReaderPaths: what /proc does not do on demand, faked: another user's process (its
// files and I/O refused), a pid reused by another process, a process gone, CPU counted over
// the wall time between readings.
func TestProcReaderPaths(t *testing.T) {
	perm := &os.PathError{Op: "open", Path: "/proc/42/io", Err: fs.ErrPermission}
	base := time.Unix(1000, 0)
	for _, tc := range []struct {
		name  string
		proc  fakeProc
		then  func(*fakeProc) // changes before the second reading
		note  []string        // in the note ("" none)
		check func(*testing.T, *fakeProc, *procReaderResult)
	}{
		// Another user's process: its files and I/O are refused, named in the note with what
		// to do; CPU, memory and threads are still read, and the refused are not asked again.
		{"another user's", fakeProc{stat: procfs.ProcStat{PID: 42, UTime: 100, NumThreads: 7, RSS: 10}, fdErr: perm, ioErr: perm},
			func(f *fakeProc) { f.stat.UTime = 150 },
			[]string{"its open-file count and disk I/O are not shown", "permission denied", "its CPU, memory and threads are", "run rpcstress as that user or as root"},
			func(t *testing.T, f *fakeProc, r *procReaderResult) {
				if r.use == nil || r.use.FDs != nil || r.use.ReadBps != nil || r.use.Threads != 7 || math.Abs(r.use.CPU-25) > 1e-9 {
					t.Errorf("use %+v", r.use)
				}
				if f.ios != 1 {
					t.Errorf("I/O asked %d times after being refused once", f.ios)
				}
			}},
		// Only the files refused: the note names them alone.
		{"files refused", fakeProc{stat: procfs.ProcStat{PID: 42}, fdErr: perm},
			func(f *fakeProc) {}, []string{"its open-file count is not shown"},
			func(t *testing.T, f *fakeProc, r *procReaderResult) {
				if r.use == nil || r.use.FDs != nil || r.use.WriteBps == nil {
					t.Errorf("use %+v", r.use)
				}
			}},
		// The pid now names another process (another start time): the watched one is gone.
		{"pid reused", fakeProc{stat: procfs.ProcStat{PID: 42, Starttime: 5}},
			func(f *fakeProc) { f.stat.Starttime = 6 }, nil,
			func(t *testing.T, f *fakeProc, r *procReaderResult) {
				if !errors.Is(r.err, errGone) || r.use != nil {
					t.Errorf("got %+v, %v; want errGone", r.use, r.err)
				}
			}},
		// The process has exited: gone, and not asked again.
		{"exited", fakeProc{stat: procfs.ProcStat{PID: 42}},
			func(f *fakeProc) { f.statErr = &os.PathError{Op: "open", Path: "/proc/42/stat", Err: fs.ErrNotExist} }, nil,
			func(t *testing.T, f *fakeProc, r *procReaderResult) {
				calls := f.statCalls
				if _, err := r.r.read(base.Add(3 * time.Second)); !errors.Is(r.err, errGone) || !errors.Is(err, errGone) || f.statCalls != calls {
					t.Errorf("got %v then %v after %d calls (%d before)", r.err, err, f.statCalls, calls)
				}
			}},
		// Disk I/O counted per second over the wall time (2 s here).
		{"io rates", fakeProc{stat: procfs.ProcStat{PID: 42}, io: procfs.ProcIO{ReadBytes: 1000, WriteBytes: 0}},
			func(f *fakeProc) { f.io.ReadBytes, f.io.WriteBytes = 5000, 2000 }, nil,
			func(t *testing.T, f *fakeProc, r *procReaderResult) {
				if r.use == nil || *r.use.ReadBps != 2000 || *r.use.WriteBps != 1000 {
					t.Errorf("use %+v", r.use)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.proc
			r, note, err := newProcReader(&f, 42, base)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.note {
				if !strings.Contains(note, w) {
					t.Errorf("note %q lacks %q", note, w)
				}
			}
			if tc.note == nil && note != "" {
				t.Errorf("note %q", note)
			}
			tc.then(&f)
			res := &procReaderResult{r: r}
			res.use, res.err = r.read(base.Add(2 * time.Second))
			tc.check(t, &f, res)
		})
	}
}

type procReaderResult struct {
	r   *procReader
	use *engine.ProcUse
	err error
}

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
	cmd := exec.Command(copyProgram(t, os.Args[0], dir, "watch.test"), "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = []string{helperEnv + "=watch", "RPCSTRESS_WATCH_PID=" + pid, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the helper as nobody: %v\n%s", err, b)
	}
	return string(b)
}
