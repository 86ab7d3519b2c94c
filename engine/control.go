package engine

// Controller is how the dashboard and signals steer a running test. Every call is recorded as an
// Event with its time, so the snapshot tells what the user did.
type Controller interface {
	// SetRate replaces the current stage's rate until the stage changes.
	SetRate(r Rate)
	// Pause stops sending; Resume starts again from "now" (no catch-up burst).
	Pause()
	Resume()
	// NextStage and PrevStage jump in the plan; the new stage starts now.
	NextStage()
	PrevStage()
	// Hold stops (true) or restarts (false) the plan from advancing by time.
	Hold(on bool)
	// Stop ends the run: nothing more is scheduled; in-flight requests drain.
	Stop(reason string)
	// Mark records an event that is not a control action (e.g. "save").
	Mark(kind, detail string)
}

// ctlKind is what a control request asks of the scheduler's walk. Each kind is recorded as an
// event of the same name (String) when the walk carries it out.
type ctlKind uint8

// The control kinds; the zero kind is none.
const (
	ctlRate    ctlKind = iota + 1 // send at control.rate until the stage changes
	ctlPause                      // stop sending
	ctlResume                     // send again from now on, without catching up
	ctlHold                       // stop the plan from advancing by time
	ctlRelease                    // let it advance again
	ctlNext                       // jump to the next stage, which starts now
	ctlPrev                       // jump to the previous stage, which starts now
	ctlStop                       // end the schedule
)

// String is the kind's event name.
func (k ctlKind) String() string {
	switch k {
	case ctlRate:
		return "rate"
	case ctlPause:
		return "pause"
	case ctlResume:
		return "resume"
	case ctlHold:
		return "hold"
	case ctlRelease:
		return "unhold"
	case ctlNext:
		return "next"
	case ctlPrev:
		return "prev"
	case ctlStop:
		return "stop"
	}
	return "none"
}

// control is a request from the Controller to the scheduler goroutine, which alone owns the plan.
type control struct {
	kind ctlKind
	rate Rate // for ctlRate
}
