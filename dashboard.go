package main

import (
	"context"
	"fmt"
	"os"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/profiles"
	"github.com/rpcstress/rpcstress/tui"
)

// onTerminal reports whether output goes to a terminal, where the dashboard runs by default.
func (c *cli) onTerminal() bool {
	f, ok := c.stdout.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// runResult is how a run ended, handed from the run goroutine to the UI goroutine.
type runResult struct {
	snap *engine.Snapshot
	err  error
}

// dashboard runs the live dashboard while the engine runs in the background. The engine never
// waits for the UI: the dashboard pulls the latest Stats on its own tick. Draining and saving
// happen in the run goroutine, so they complete even when the UI is gone (a second q, a lost
// terminal); the UI only gets told. q and ctrl+c stop the run and leave once it is saved (the
// report is then printed on the normal screen); ctrl+c counts as the SIGINT it stands for.
func (c *cli) dashboard(ctx context.Context, runner *engine.Runner, meta engine.SnapshotMeta, prof *profiles.Profile, out *runOutput, f *runFlags) (*engine.Snapshot, syscall.Signal, error) {
	save := func() (string, error) { // s: a file of its own, which the end of the run keeps
		snap, err := runner.SnapshotNow(meta)
		if err != nil {
			return "", err
		}
		return out.save(ctx, snap)
	}
	ctl := runner.Controller()
	var caught caughtSignal
	stop := func(s syscall.Signal) { ctl.Stop(stopReason(s)) }
	model := tui.NewDashboard(tui.DashboardOptions{
		Stats: runner.Stats, Control: ctl, Save: save,
		// Raw mode turns ctrl+c into a key; it still means SIGINT (end reason, exit 130).
		Interrupt: func() {
			if !caught.note(syscall.SIGINT) {
				stop(syscall.SIGINT)
			}
		},
		FPS: f.fps, ExitOnEnd: f.exitOnEnd, Inline: f.inline,
	})
	opts := []tea.ProgramOption{tea.WithoutSignalHandler(), tea.WithOutput(c.stdout)}
	in := openKeyInput()
	if in != nil {
		defer in.close()
		opts = append(opts, tea.WithInput(in))
	}
	p := tea.NewProgram(model, opts...)
	if in != nil {
		in.onEnd = func() { go p.Send(tui.InputClosedMsg{}) }
	}

	endUI := func(sig syscall.Signal) {
		if sig == syscall.SIGHUP {
			p.Kill() // the terminal is gone: nothing to restore, nobody to press a key
			return
		}
		p.Quit() // a signal ends the program: nobody will press a key
	}
	// A signal while the final summary is shown (the run is over and saved) only closes it.
	stopSignals := c.watchSignals(stop, &caught, endUI)
	defer stopSignals()

	done := make(chan runResult, 1)
	go func() {
		stopSaving := c.saveEvery(ctx, runner, meta, out, f.saveEvery)
		snap, err := runner.Run(ctx, meta)
		stopSaving()
		if err == nil {
			judge(prof, snap)
			err = out.final(ctx, snap)
		}
		done <- runResult{snap, err}
		p.Send(tui.RunDoneMsg{Snapshot: snap, Path: out.target.Path, Err: err})
		if sig := caught.end(); sig != 0 {
			endUI(sig)
		}
	}()

	_, uiErr := p.Run()
	// The UI may end before the run: after a second q (the engine is leaving its drain
	// already), or when the UI failed (the run stops and drains). The run is saved before we
	// return either way.
	var res runResult
	select {
	case res = <-done:
	default:
		ctl.Stop("quit")
		res = <-done
	}
	if uiErr != nil && res.err == nil {
		fmt.Fprintf(c.stderr, "rpcstress: the dashboard ended: %s (the run was saved)\n", safetext.Line(uiErr.Error()))
	}
	return res.snap, caught.get(), res.err
}
