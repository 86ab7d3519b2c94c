// Package proctest runs a program as a child process of a test: its output kept as it comes,
// reaped in the background, waited on for a sign that it is ready, and stopped by its PID with
// a signal that turns into SIGKILL when ignored. A process started here never outlives its
// test. The e2e tests (nginx, the built binary, the mock node as a process), promtest,
// gethtest and watch's tests all start processes this one way.
package proctest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/syncbuf"
)

// pollEvery is how often Await asks whether the process is ready: short beside any start-up
// worth waiting for, long enough not to busy the machine's two cores.
const pollEvery = 20 * time.Millisecond

// waitDelay bounds how long the end of a process waits for its output to close: a child that
// escaped its group and holds the output must not hang the test.
const waitDelay = 10 * time.Second

// Proc is a started process.
type Proc struct {
	Cmd *exec.Cmd
	// Out collects what the process writes to the streams the caller left unset.
	Out    *syncbuf.Buffer
	exited chan struct{}
}

// Start starts cmd in a process group of its own, its unset stdout and stderr going to Out,
// and kills it when the test ends should it still run. A failure to start is returned, not reported: Start may run on any
// goroutine (a node restarted mid-run), where the test may not stop.
func Start(tb testing.TB, cmd *exec.Cmd) (*Proc, error) {
	p := &Proc{Cmd: cmd, Out: &syncbuf.Buffer{}, exited: make(chan struct{})}
	if cmd.Stdout == nil {
		cmd.Stdout = p.Out
	}
	if cmd.Stderr == nil {
		cmd.Stderr = p.Out
	}
	if cmd.SysProcAttr == nil {
		// Its own group, so Kill takes the helpers it started too (nginx's workers, a shell's
		// children): they hold its output open, and Wait waits for that.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	}
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	// Reaped as soon as it exits, so its PID is gone then (what watch's tests rely on).
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	tb.Cleanup(p.Kill)
	return p, nil
}

// Exited is closed once the process has exited and been reaped.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// Signal sends sig to the process by its PID (not to its group: how its helpers end is the
// program's business); to one that has exited, nothing.
func (p *Proc) Signal(sig os.Signal) error {
	if err := p.Cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("signal %v to pid %d: %w", sig, p.Cmd.Process.Pid, err)
	}
	return nil
}

// Stop sends sig and waits up to grace for the process to exit; one still running then is
// killed. It reports whether sig alone ended it in time (true for one that had ended before).
func (p *Proc) Stop(sig os.Signal, grace time.Duration) bool {
	_ = p.Signal(sig)
	select {
	case <-p.exited:
		return true
	case <-time.After(grace):
		p.Kill()
		return false
	}
}

// Kill kills the process and the rest of its group, and waits for its end; an ended one is
// left as it is.
func (p *Proc) Kill() {
	select {
	case <-p.exited:
		return // its PID, hence its group's, may be another's by now
	default:
	}
	if p.Cmd.SysProcAttr.Setpgid {
		_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	}
	_ = p.Signal(syscall.SIGKILL)
	<-p.exited
}

// Await polls ready until it holds. It fails, with the output so far, when the process exits
// first or within passes: what names what was awaited ("a listening port").
func (p *Proc) Await(within time.Duration, what string, ready func() bool) error {
	deadline := time.Now().Add(within)
	for !ready() {
		select {
		case <-p.exited:
			if ready() { // its last words may be the sign
				return nil
			}
			return fmt.Errorf("%s exited (%v) before %s:\n%s", p.Cmd.Path, p.Cmd.ProcessState, what, p.Out)
		case <-time.After(pollEvery):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: no %s after %s:\n%s", p.Cmd.Path, what, within, p.Out)
		}
	}
	return nil
}

// FreeAddr is an address on 127.0.0.1 free a moment ago (the kernel's pick for port 0), to tell
// a process to listen on, or to find nothing listening. Another program may take it before it
// is bound again; the process then fails with its own "address already in use".
func FreeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
