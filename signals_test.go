package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestCaughtSignal(t *testing.T) {
	type step struct {
		op   string         // "note" or "end"
		sig  syscall.Signal // note's signal
		want bool           // note: reports the run ended
		got  syscall.Signal // end: the signal it returns
	}
	tests := []struct {
		name  string
		steps []step
		final syscall.Signal // get() at the end
	}{
		// Nothing caught: the run ends by itself.
		{"no signal", []step{{op: "end", got: 0}}, 0},
		// The first signal stops the run and is its end reason.
		{"one", []step{{op: "note", sig: syscall.SIGTERM}, {op: "end", got: syscall.SIGTERM}}, syscall.SIGTERM},
		// A second signal (leave the drain) does not change the reason.
		{"two", []step{{op: "note", sig: syscall.SIGINT}, {op: "note", sig: syscall.SIGHUP}, {op: "end", got: syscall.SIGINT}}, syscall.SIGINT},
		// After the end (the summary waits for a key) a signal only closes the screen.
		{"after the end", []step{{op: "end", got: 0}, {op: "note", sig: syscall.SIGHUP, want: true}}, 0},
		// A signal that stopped the run stays its reason after the end, whatever comes next.
		{"before and after", []step{{op: "note", sig: syscall.SIGINT}, {op: "end", got: syscall.SIGINT}, {op: "note", sig: syscall.SIGTERM, want: true}}, syscall.SIGINT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c caughtSignal
			for i, s := range tt.steps {
				switch s.op {
				case "note":
					if ended := c.note(s.sig); ended != s.want {
						t.Errorf("step %d: note(%s) = %v, want %v", i+1, signalName(s.sig), ended, s.want)
					}
				case "end":
					if got := c.end(); got != s.got {
						t.Errorf("step %d: end() = %v, want %v", i+1, got, s.got)
					}
				}
			}
			if got := c.get(); got != tt.final {
				t.Errorf("get() = %v, want %v", got, tt.final)
			}
		})
	}
}

// TestCaughtSignalRacesEnd: a signal racing the end of the run is either seen by end (the run
// stopped on it) or finds the run ended (it closes the summary screen): always exactly one of
// the two, or the summary would wait for a key nobody can press.
func TestCaughtSignalRacesEnd(t *testing.T) {
	for i := range 2000 {
		var c caughtSignal
		var ended bool
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			ended = c.note(syscall.SIGHUP)
		}()
		got := c.end()
		wg.Wait()
		if (got == syscall.SIGHUP) == ended {
			t.Fatalf("round %d: end() = %v and note reported ended=%v: want exactly one to see the signal", i, got, ended)
		}
	}
}

// TestSignalWhileLoading: a signal while the input is read (a load that blocks: a hung mount,
// anything the refusal of special files does not catch) ends the program at once with
// 128+N and says nothing was sent; a load that ends first is not disturbed.
func TestSignalWhileLoading(t *testing.T) {
	tests := []struct {
		name    string
		sig     syscall.Signal // sent while the load blocks; 0: none
		loadErr error          // what the load returns when it is let go
		code    int
		want    string // in stderr
	}{
		// Ctrl-C while loading: 130.
		{"SIGINT", syscall.SIGINT, nil, 130, "rpcstress: SIGINT while loading p.toml: nothing was sent"},
		// systemd or kill while loading: 143.
		{"SIGTERM", syscall.SIGTERM, nil, 143, "rpcstress: SIGTERM while loading p.toml: nothing was sent"},
		// A load that fails is bad input, as before.
		{"load fails", 0, errors.New("p.toml:3: bad"), exitUsage, "rpcstress: p.toml:3: bad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := make(chan os.Signal, 1)
			var stderr syncBuffer
			c := &cli{stdout: &syncBuffer{}, stderr: &stderr, signals: sig}
			release := make(chan struct{}) // closed: the load ends
			if tt.sig != 0 {
				sig <- tt.sig
				defer close(release)
			} else {
				close(release)
			}
			got := make(chan int, 1)
			go func() {
				_, err := whileWatching(c, "loading p.toml: nothing was sent", func() (int, error) {
					<-release // blocks like a read nobody answers, until the test lets it go
					return 1, tt.loadErr
				})
				got <- c.failInput(err)
			}()
			select {
			case code := <-got:
				if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
					t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tt.code, tt.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the signal did not end the wait for the load")
			}
		})
	}
}

// TestWaitUntil: --start-at sleeps until its time; a signal meanwhile ends the program with
// 128+N before anything is sent, and a time past already starts at once, saying so.
func TestWaitUntil(t *testing.T) {
	tests := []struct {
		name   string
		in     time.Duration  // from now to --start-at
		sig    syscall.Signal // sent while it waits; 0: none
		cancel bool           // the context ends while it waits
		code   int
		ok     bool
		stdout string // what it says, in order: stdout then stderr
		stderr string
	}{
		// The time comes: the run starts.
		{"on time", 50 * time.Millisecond, 0, false, 0, true, "waiting 0s until ", ""},
		// A time gone by: start now, and say so (a shard that was late).
		{"past", -time.Minute, 0, false, 0, true, "", "rpcstress: --start-at "},
		// Ctrl-C while waiting: 130, nothing sent.
		{"SIGINT", time.Hour, syscall.SIGINT, false, 130, false, "waiting 1h0m0s until ", "rpcstress: SIGINT while waiting to start: nothing was sent\n"},
		// kill while waiting: 143.
		{"SIGTERM", time.Hour, syscall.SIGTERM, false, 143, false, "waiting 1h0m0s until ", "rpcstress: SIGTERM while waiting to start: nothing was sent\n"},
		// The program is told to end: the run does not start, silently.
		{"cancelled", time.Hour, 0, true, exitRunFailed, false, "waiting 1h0m0s until ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := make(chan os.Signal, 1)
			var stdout, stderr syncBuffer
			c := &cli{stdout: &stdout, stderr: &stderr, signals: sig}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tt.sig != 0 {
				sig <- tt.sig
			}
			if tt.cancel {
				cancel()
			}
			start := time.Now()
			code, ok := c.waitUntil(ctx, start.Add(tt.in))
			if code != tt.code || ok != tt.ok {
				t.Errorf("waitUntil = %d, %v; want %d, %v", code, ok, tt.code, tt.ok)
			}
			if !strings.HasPrefix(stdout.String(), tt.stdout) || !strings.HasPrefix(stderr.String(), tt.stderr) || tt.stderr == "" && stderr.String() != "" {
				t.Errorf("stdout %q, stderr %q; want them to begin %q and %q", stdout.String(), stderr.String(), tt.stdout, tt.stderr)
			}
			if tt.in > time.Minute && time.Since(start) > 5*time.Second {
				t.Errorf("it waited %s: the wait was not cut short", time.Since(start))
			}
		})
	}
}
