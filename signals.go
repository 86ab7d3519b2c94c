package main

import (
	"errors"
	"sync"
	"syscall"
)

// caughtSignal remembers the signal that stopped a run; the signal goroutine sets it while the
// run goroutine may read it.
type caughtSignal struct {
	mu    sync.Mutex
	sig   syscall.Signal
	ended bool // the run is over and saved (see end)
}

// note records s as the signal that stops the run, unless one was caught before (the first
// one stopped it, and is the run's end reason) or the run has ended already: then it reports
// true and the run's outcome stays as it was (a signal on the final summary screen only
// closes it).
func (c *caughtSignal) note(s syscall.Signal) (ended bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return true
	}
	if c.sig == 0 {
		c.sig = s
	}
	return false
}

// end marks the run over and returns the signal caught before that, or 0. One lock for both
// note and end, so a signal is either seen by whoever ends the run or finds the run ended:
// never neither, which would leave the summary screen waiting for a key nobody can press.
func (c *caughtSignal) end() syscall.Signal {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	return c.sig
}

// get is the signal caught, or 0.
func (c *caughtSignal) get() syscall.Signal {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sig
}

// watchSignals is the one signal watcher of a run and of a search: SIGINT, SIGTERM and SIGHUP
// (an SSH drop) each call stop, and the first is noted in caught (the exit status and end
// reason). stop is called on every signal, not only the first: the first stops and drains, a
// further one must leave the drain at once, which the engine's Stop does when the schedule is
// over already (so does a first signal after the plan ran out, while the run only waits on a
// target that does not answer). Once the run has ended (caught.end), a signal goes to afterEnd
// instead, if given.
func (c *cli) watchSignals(stop func(syscall.Signal), caught *caughtSignal, afterEnd func(syscall.Signal)) (stopWatching func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case s := <-c.signals:
				sys, ok := s.(syscall.Signal)
				if !ok {
					continue
				}
				if caught.note(sys) {
					if afterEnd != nil {
						afterEnd(sys)
					}
					continue
				}
				stop(sys)
			}
		}
	}()
	return func() { close(done) }
}

// stopReason is the end reason a signal gives a run: "signal:SIGINT".
func stopReason(s syscall.Signal) string { return "signal:" + signalName(s) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// interrupted is a signal that came while reading the input (a profile, a snapshot): the
// program ends with 128+N and says so.
type interrupted struct {
	sig   syscall.Signal
	while string // "loading p.toml: nothing was sent"
}

func (e *interrupted) Error() string { return signalName(e.sig) + " while " + e.while }

// whileWatching runs work (reading a profile and its files, or a snapshot) while listening to
// the signals, so that a read that blocks (a FIFO nobody writes, a hung network mount, a
// terminal) can still be interrupted: a signal returns an *interrupted error at once, and the
// work is left to its goroutine (the program is about to exit). Before, signals were caught
// before anything was read, so such a read was deaf to them and only SIGKILL ended it.
func whileWatching[T any](c *cli, while string, work func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := work()
		done <- result{v, err}
	}()
	for {
		select {
		case r := <-done:
			return r.v, r.err
		case s := <-c.signals:
			if sys, ok := s.(syscall.Signal); ok {
				var zero T
				return zero, &interrupted{sig: sys, while: while}
			}
		}
	}
}

// failInput reports an error of reading the input: a signal meanwhile exits 128+N, anything
// else is bad input (exit 2).
func (c *cli) failInput(err error) int {
	var in *interrupted
	if errors.As(err, &in) {
		return c.fail(exitSignalsBase+int(in.sig), err)
	}
	return c.fail(exitUsage, err)
}
