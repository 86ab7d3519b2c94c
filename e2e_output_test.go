//go:build unix

package main

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// TestE2ENotRegularFileRefused: a FIFO where a file is expected (a body_file, a --targets
// file, the profile itself) is refused at once with exit 2 and a message naming it, by
// validate and by a run. Before, they blocked on the FIFO forever, deaf to signals.
func TestE2ENotRegularFileRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	p := writeFile(t, dir, "p.toml", "url = \"http://127.0.0.1:1/\"\n[[request]]\nbody_file = \"pipe.json\"\n"+stage("1/s", "1s"))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"validate body_file", []string{"validate", p}, "p.toml:3: request[1].body_file: \"pipe.json\" is a pipe (FIFO), not a regular file"},
		{"run body_file", []string{p}, "p.toml:3: request[1].body_file: \"pipe.json\" is a pipe (FIFO), not a regular file"},
		// As --targets /dev/stdin is on a pipe.
		{"run --targets", []string{"--targets", fifo, "--rate", "1/s", "--duration", "1s"}, "target file " + fifo + ": is a pipe (FIFO), not a regular file"},
		{"validate the profile", []string{"validate", fifo}, "profile " + fifo + ": is a pipe (FIFO), not a regular file"},
		{"find-limit the profile", []string{"find-limit", fifo}, "profile " + fifo + ": is a pipe (FIFO), not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := startCLI(t, nil, tt.args...).wait(t, 10*time.Second)
			fix := "save the content to a regular file"
			if strings.HasPrefix(tt.name, "run --targets") {
				fix = "to stream targets, pipe them into --targets -" // the way to read a pipe
			}
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) || !strings.Contains(r.stderr, fix) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q and how to fix it", r.code, r.stderr, tt.want)
			}
		})
	}
}

// TestE2EOutDeviceSurvives: --out naming a copy of /dev/null takes the snapshot and stays a
// character device (before: it became a regular file, as /dev/null itself would have as root).
func TestE2EOutDeviceSurvives(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	dev := filepath.Join(t.TempDir(), "mynull")
	outfiletest.Mknod(t, dev, unix.S_IFCHR, 1, 3)
	p := writeProfile(t, srv.URL, 4, getBalance+stage("20/s", "500ms"))
	r := runVerb(t, p, "--headless", "--save-every", "100ms", "--out", dev)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	fi, err := os.Lstat(dev)
	if err != nil || fi.Mode().Type() != os.ModeDevice|os.ModeCharDevice {
		t.Errorf("%s is now %s (%v), want a character device", dev, fi.Mode().Type(), err)
	}
	if want := "is a character device: the snapshot goes there once, at the end"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want the note %q", r.stderr, want)
	}
}

// TestE2EBadOutFailsBeforeRun: a missing folder, a directory, a read-only file (for --out, find-limit
// --out, --cpuprofile, --memprofile, merge -o and report -o) fail with exit 2 before anything is sent, each
// saying what to do; the read-only file is left as it was. Before, a run went to its end and
// then failed (or replaced the file, or made the folder).
func TestE2EBadOutFailsBeforeRun(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	dir := t.TempDir()
	readonly := filepath.Join(dir, "ro.json")
	if err := os.WriteFile(readonly, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no", "such", "x.json")
	p := writeProfile(t, srv.URL, 4, getBalance+stage("50/s", "1s")+"[search]\nprobe = \"1s\"\nsettle = \"0s\"\n")
	snap := filepath.Join(dir, "good.json")
	if err := engine.WriteSnapshot(snap, snapAt(time.Second, "completed")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{p, "--headless", "--out", missing}, "--out " + missing + ": the folder " + filepath.Dir(missing) + " does not exist: create it first"}, // no folder
		{[]string{p, "--headless", "--out", dir}, "--out " + dir + ": is a directory: name a file inside it instead"},                                    // a directory
		{[]string{p, "--headless", "--out", readonly}, "--out " + readonly + ": is read-only (-r--r--r--), so rpcstress will not replace it"},            // 0444, even as root
		{[]string{p, "--headless", "--out", filepath.Join(dir, "ok.json"), "--cpuprofile", dir}, "--cpuprofile " + dir + ": is a directory"},             // the CPU profile
		{[]string{p, "--headless", "--out", filepath.Join(dir, "ok.json"), "--memprofile", dir}, "--memprofile " + dir + ": is a directory"},             // the heap profile
		{[]string{"find-limit", p, "--headless", "--out", readonly}, "--out " + readonly + ": is read-only"},                                             // a search
		{[]string{"merge", "-o", dir, snap, snap}, "-o " + dir + ": is a directory"},                                                                     // merge -o
		{[]string{"report", "--format", "csv", "-o", readonly, snap}, "-o " + readonly + ": is read-only"},                                               // report -o
	}
	for _, tt := range tests {
		r := runVerb(t, tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "rpcstress: "+tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 saying %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("the target got %d requests before the bad output path was refused", n)
	}
	if b, _ := os.ReadFile(readonly); string(b) != "keep" {
		t.Errorf("the read-only file was changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("the missing folder was made")
	}
}

// TestE2EDiskFullKeepsPeriodic: the disk fills up during a run: the final snapshot cannot be
// written, the last periodic one stays whole where it was, the error says so (and when it was
// taken), and the report is printed anyway; exit 3.
func TestE2EDiskFullKeepsPeriodic(t *testing.T) {
	t.Parallel()
	dir := outfiletest.Tmpfs(t, "1m")
	out := filepath.Join(dir, "run.json")
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	p := writeProfile(t, srv.URL, 4, getBalance+stage("50/s", "2s"))
	filled := make(chan struct{})
	go func() {
		defer close(filled)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(out); err == nil {
				outfiletest.Fill(t, dir, "filler")
				return
			}
		}
	}()
	r := runVerb(t, p, "--headless", "--save-every", "300ms", "--out", out)
	<-filled
	if r.code != exitRunFailed {
		t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitRunFailed, r.stderr)
	}
	want := fmt.Sprintf(`rpcstress: snapshot %s: writing: no space left on device; the last periodic snapshot \(t=\d+s\) is still at %s\n$`, out, out)
	if !regexp.MustCompile(want).MatchString(r.stderr) {
		t.Errorf("stderr %q, want it to end like %q", r.stderr, want)
	}
	if !strings.Contains(r.stdout, "Invariant ✓") {
		t.Errorf("no report:\n%s", r.stdout)
	}
	// The failed periodic saves are an event of the run (the report's events, which the
	// dashboard shows live), not lines on stderr under a dashboard.
	if strings.Contains(r.stderr, "periodic snapshot") && !strings.Contains(r.stderr, "the last periodic snapshot") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr carries more than the final error:\n%s", r.stderr)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a report line over 80 columns: %q", l)
		}
	}
	if !strings.Contains(r.stdout, "periodic snapshot failed") {
		t.Errorf("the failed periodic save is not among the run's events:\n%s", r.stdout)
	}
	s, err := readSnapshot(t, out)
	if err != nil || s.EndReason != "running" || s.Totals.Completed == 0 {
		t.Fatalf("the periodic snapshot: %v, %+v", err, s)
	}
	if err := s.Totals.CheckInvariant(); err != nil {
		t.Error(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%s holds %d files, want run.json and the filler (no temporary file)", dir, len(entries))
	}
}

// TestE2EFIFOGetsOneSnapshot: a FIFO as --out gets exactly one snapshot, the final one with the
// thresholds' verdict in it. Before, a profile with [thresholds] wrote the snapshot a second
// time after judging them, which a FIFO's reader, gone after the first, turned into exit 3.
func TestE2EFIFOGetsOneSnapshot(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Echo})
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo) // until the writer closes: one writer, one snapshot
		got <- b
	}()
	p := writeProfile(t, srv.URL, 4, getBalance+stage("20/s", "500ms")+"[thresholds]\nfailed = \"== 0\"\n")
	r := runVerb(t, p, "--headless", "--save-every", "100ms", "--out", fifo)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var b []byte
	select {
	case b = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO's reader got no end of file")
	}
	s, err := engine.DecodeSnapshot(b)
	if err != nil {
		t.Fatalf("the reader got %d bytes that are not one snapshot: %v", len(b), err)
	}
	if s.EndReason != "completed" || len(s.Thresholds) != 1 {
		t.Errorf("end %q, thresholds %+v: want the final snapshot with its verdict", s.EndReason, s.Thresholds)
	}
}
