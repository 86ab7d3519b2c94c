//go:build linux

// Command wakecost measures what one sleep and wake costs a thread in CPU time on this
// machine, as the kernel accounts it (CLOCK_THREAD_CPUTIME_ID, what /usr/bin/time and
// bench/run.sh add up), so that bench/README can say how much of a tester's CPU per request
// at a low rate is the machine's price of waking, which no tester's code can lower (issue
// 20). Two ways to be woken, each -n times, -every apart:
//
//	timer  a one-shot timerfd, set before each sleep, as rpcstress's Scheduler sets its tick;
//	cross  an eventfd written by a thread on another core, as a target's answer wakes a
//	       tester that reads eagerly.
//
// The sleeper is pinned to -core, the waker of cross to -waker-core. Both call the kernel
// directly, on threads of their own, so the Go runtime adds nothing to what is measured.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	n := flag.Int("n", 3000, "wakes per way")
	every := flag.Duration("every", time.Millisecond, "time between wakes")
	core := flag.Int("core", 1, "the sleeper's core")
	wakerCore := flag.Int("waker-core", 0, "the core of cross's waker")
	flag.Parse()
	for _, way := range []string{"timer", "cross"} {
		r, err := measure(way, *n, *every, *core, *wakerCore)
		if err != nil {
			fmt.Fprintln(os.Stderr, "wakecost:", err)
			os.Exit(1)
		}
		fmt.Println(r)
	}
}

// result is one way's figures: CPU time of the sleeper per wake, and the time between wakes.
type result struct {
	way       string
	cpu, wall time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("%-5s %6.2f µs of CPU per sleep and wake, %.3f ms apart", r.way,
		float64(r.cpu)/float64(time.Microsecond), float64(r.wall)/float64(time.Millisecond))
}

// measure sleeps and wakes n times the given way on a thread pinned to core.
func measure(way string, n int, every time.Duration, core, wakerCore int) (result, error) {
	if n <= 0 || every <= 0 {
		return result{}, errors.New("-n and -every must be above 0")
	}
	out := make(chan result, 1)
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // the thread ends with the goroutine: its pinning goes with it
		if err := pin(core, "-core"); err != nil {
			errc <- err
			return
		}
		r, err := sleeper(way, n, every, wakerCore)
		if err != nil {
			errc <- err
			return
		}
		out <- r
	}()
	select {
	case r := <-out:
		return r, nil
	case err := <-errc:
		return result{}, err
	}
}

// pin keeps the calling thread on core, which flag chose.
func pin(core int, flag string) error {
	var set unix.CPUSet
	set.Set(core)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("core %d: %w (%d cores here: choose with %s)", core, err, runtime.NumCPU(), flag)
	}
	return nil
}

// sleeper is the measuring thread: n blocking epoll waits, each ended the given way.
func sleeper(way string, n int, every time.Duration, wakerCore int) (result, error) {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return result{}, fmt.Errorf("epoll: %w", err)
	}
	defer unix.Close(ep)
	var fd int
	if way == "timer" {
		fd, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	} else {
		fd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	}
	if err != nil {
		return result{}, fmt.Errorf("%s fd: %w", way, err)
	}
	defer unix.Close(fd)
	if err := unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}); err != nil {
		return result{}, fmt.Errorf("epoll_ctl: %w", err)
	}
	if way == "cross" {
		started, stop, done := make(chan error, 1), make(chan struct{}), make(chan struct{})
		go waker(fd, every, wakerCore, started, stop, done)
		if err := <-started; err != nil {
			return result{}, err
		}
		defer func() { close(stop); <-done }() // before fd closes: its number may be reused
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(every))}
	var ev [1]unix.EpollEvent
	var buf [8]byte
	cpu0, wall0 := threadCPU(), time.Now()
	for range n {
		if way == "timer" {
			syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(fd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
		}
		// Raw: the Go runtime is not told, so it neither hands the P on nor wakes sysmon. A
		// signal (the runtime's preemption) ends a wait early: wait again until fd has fired.
		for {
			syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(&ev[0])), 1, ^uintptr(0), 0, 0)
			if r, _, _ := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), 8); r == 8 {
				break
			}
		}
	}
	cpu, wall := threadCPU()-cpu0, time.Since(wall0)
	return result{way: way, cpu: cpu / time.Duration(n), wall: wall / time.Duration(n)}, nil
}

// waker writes fd every interval from a thread pinned to core, until stop is closed; then it
// closes done. It sleeps by clock_nanosleep, raw, so its own wakes are its thread's, not the
// sleeper's.
func waker(fd int, every time.Duration, core int, started chan<- error, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	runtime.LockOSThread()
	if err := pin(core, "-waker-core"); err != nil {
		started <- err
		return
	}
	started <- nil
	one := uint64(1)
	ts := unix.NsecToTimespec(int64(every))
	for {
		select {
		case <-stop:
			return
		default:
		}
		syscall.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, 0, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&one)), 8)
	}
}

// threadCPU is the calling thread's CPU time so far.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
