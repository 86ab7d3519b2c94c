package tui

import (
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// rateStep is how much ↑ and ↓ change the target rate.
const rateStep = 0.10

// handleKey turns a key into an action. Control calls are made here, on the event loop, so they
// reach the engine in the order they were pressed; they only hand a message to the scheduler
// (a buffered channel), so they do not make the UI wait.
func (d *Dashboard) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	d.dirty = true
	k := &d.keys
	switch {
	case d.done != nil:
		return tea.Quit // the final summary stays until any key
	case key.Matches(msg, k.Quit) && (!d.inputOpen || msg.Text == ""):
		// While typing a rate, q is a letter; ctrl+c (no text) still quits.
		return d.quit(msg.String() == "ctrl+c")
	case d.inputOpen:
		return d.inputKey(msg)
	case key.Matches(msg, k.Help):
		d.help.ShowAll = !d.help.ShowAll
	case key.Matches(msg, k.Histogram):
		d.latency.toggle()
	case d.quitting || d.c.st.Done:
		// The run is ending: there is nothing left to steer.
	case key.Matches(msg, k.RateUp):
		d.changeRate(1 + rateStep)
	case key.Matches(msg, k.RateDown):
		d.changeRate(1 - rateStep)
	case key.Matches(msg, k.RateSet):
		return d.openInput()
	case key.Matches(msg, k.NextStage):
		d.opts.Control.NextStage()
	case key.Matches(msg, k.PrevStage):
		d.opts.Control.PrevStage()
	case key.Matches(msg, k.Pause):
		d.togglePause()
	case key.Matches(msg, k.Hold):
		d.toggleHold()
	case key.Matches(msg, k.Save):
		return d.save()
	}
	return nil
}

// quit stops the run: the engine drains in-flight requests and main saves the snapshot, then
// sends RunDoneMsg, and the dashboard leaves (runDone). A second quit while draining stops the
// run again, which makes the engine leave the drain at once, and leaves (main still saves).
// interrupt is ctrl+c: when it is the key that stops the run, it goes to Interrupt (main
// treats it as SIGINT); a second key only hurries a stop already made, whatever made it.
func (d *Dashboard) quit(interrupt bool) tea.Cmd {
	if d.c.st.Done {
		return tea.Quit // the run is over; main is saving it
	}
	again := d.quitting
	d.quitting = true
	d.closeInput()
	d.c.setMessage("", false) // the footer tells the drain from now on
	if interrupt && !again && d.opts.Interrupt != nil {
		d.opts.Interrupt()
	} else {
		d.opts.Control.Stop("quit")
	}
	if again {
		return tea.Quit
	}
	return nil
}

// changeRate multiplies the target rate. From zero, a raise starts at 1/s, since 10% of nothing
// would never move.
func (d *Dashboard) changeRate(factor float64) {
	cur := d.c.plan.TargetRate.PerSecond()
	next := cur * factor
	if cur <= 0 && factor > 1 {
		next = 1
	}
	// Rounded to a thousandth, so that 10% of 1000/s is 1100/s and not 1100.0000000000002/s.
	next = math.Round(next*1000) / 1000
	d.setRate(min(engine.Rate(next), engine.MaxRate))
}

func (d *Dashboard) setRate(r engine.Rate) {
	was := d.c.plan.TargetRate
	d.opts.Control.SetRate(r)
	d.c.plan.TargetRate = r
	d.c.setMessage("target "+r.String()+" (was "+was.String()+")", false)
}

// togglePause pauses a sending run and resumes a paused one.
func (d *Dashboard) togglePause() {
	if d.c.plan.State == engine.StatePaused {
		d.opts.Control.Resume()
		d.c.plan.State = engine.StateRunning
		d.c.setMessage("resumed", false)
		return
	}
	d.opts.Control.Pause()
	d.c.plan.State = engine.StatePaused
	d.c.setMessage("paused: nothing is sent until space", false)
}

// toggleHold holds the current stage (the plan stops advancing by time) or lets it go on.
func (d *Dashboard) toggleHold() {
	if d.c.plan.State == engine.StateHeld {
		d.opts.Control.Hold(false)
		d.c.plan.State = engine.StateRunning
		d.c.setMessage("stage released: the plan goes on", false)
		return
	}
	d.opts.Control.Hold(true)
	d.c.plan.State = engine.StateHeld
	d.c.setMessage("stage held: h again to let the plan go on", false)
}

// save writes a snapshot off the event loop; savedMsg brings the result back.
func (d *Dashboard) save() tea.Cmd {
	if d.opts.Save == nil {
		d.c.setMessage("saving a snapshot is not available in this run", true)
		return nil
	}
	if d.saving {
		return nil
	}
	d.saving = true
	d.c.setMessage("saving…", false)
	save := d.opts.Save
	return func() tea.Msg {
		path, err := save()
		return savedMsg{path: path, err: err}
	}
}

func (d *Dashboard) openInput() tea.Cmd {
	d.inputOpen = true
	d.input.Reset()
	d.c.setMessage("", false)
	return d.input.Focus()
}

func (d *Dashboard) closeInput() {
	d.inputOpen = false
	d.input.Blur()
	d.input.Reset()
}

// inputKey handles a key while the rate input is open: enter sets the rate if it parses (a bad
// one is explained and the input stays open to fix it), esc cancels, anything else edits.
func (d *Dashboard) inputKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, d.keys.Cancel):
		d.closeInput()
		d.c.setMessage("", false)
		return nil
	case key.Matches(msg, d.keys.Confirm):
		r, err := engine.ParseRate(d.input.Value())
		if err != nil {
			d.c.setMessage(err.Error(), true)
			return nil
		}
		d.closeInput()
		d.setRate(r)
		return nil
	}
	if d.c.messageBad {
		d.c.setMessage("", false) // the complaint was about the old text
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}
