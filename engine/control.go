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
