package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// DefaultFPS is how many times a second the dashboard pulls the engine's stats and redraws.
const DefaultFPS = 10

// DashboardOptions wire the dashboard to a run.
type DashboardOptions struct {
	// Stats returns the latest immutable view of the run; never nil. It is called once per frame.
	Stats func() *engine.Stats
	// Control steers the run; every key action goes through it, so the engine records it.
	Control engine.Controller
	// Save writes a snapshot now and returns its path. It is called from a tea.Cmd, off the
	// event loop, since it may take a while.
	Save func() (path string, err error)
	// FPS is how many frames a second the dashboard draws (DefaultFPS when 0 or less).
	FPS int
	// Interrupt is what ctrl+c does instead of Control.Stop("quit"): ctrl+c stands for SIGINT
	// (the terminal would send one were it not in raw mode), so main stops the run as it stops
	// it on the signal (end reason and exit status of SIGINT). Nil: ctrl+c is q.
	Interrupt func()
	// ExitOnEnd quits as soon as the run is done instead of waiting for a key.
	ExitOnEnd bool
	// Inline draws without the alternate screen, so the last frame (the final summary) stays in
	// the terminal's scrollback.
	Inline bool
}

// RunDoneMsg tells the dashboard that the run has finished and its snapshot is written (or
// failed to be). main sends it with tea.Program.Send.
type RunDoneMsg struct {
	Snapshot *engine.Snapshot
	Path     string
	Err      error
}

// InputClosedMsg tells the dashboard that its input has ended: the terminal is gone (closed
// without a SIGHUP). Nobody can press a key or watch any more, so the dashboard stops the run
// as an SSH drop would (end reason EndTerminalClosed; it drains and main saves it) and leaves
// once it is saved, at once if it is already, instead of waiting for a key.
type InputClosedMsg struct{}

// EndTerminalClosed is the end reason of a run stopped because its terminal went away.
const EndTerminalClosed = "terminal closed"

// tickMsg is the frame clock: each one pulls the latest stats and arms the next.
type tickMsg struct{}

// savedMsg is the result of a save started with the s key.
type savedMsg struct {
	path string
	err  error
}

// Dashboard is the live view of a run, a tea.Model. It pulls the engine's stats on its own
// frame tick (one message per frame, never one per sample), so the engine never waits for the
// UI and the UI's cost follows the frame rate, not the request rate.
type Dashboard struct {
	opts   DashboardOptions
	clock  frameClock
	styles Styles
	keys   KeyMap
	c      common

	help  help.Model
	input textinput.Model

	header     headerPane
	throughput throughputPane
	latency    latencyPane
	status     statusPane
	errors     errorsPane
	conns      connsPane // the compact layout's line of connections
	events     eventsPane
	stages     stagesPane
	requests   requestsPane
	node       nodePane
	targets    targetsPane // several targets side by side
	answers    answersPane // and their answers compared
	subs       subsPane
	footer     footerPane

	width, height int

	inputOpen   bool
	saving      bool
	quitting    bool        // the user stopped the run: it drains, then the dashboard leaves
	inputClosed bool        // the terminal's input ended: nobody can press a key
	done        *RunDoneMsg // the run is over and saved (or not)

	// frame is the last drawn content. Update redraws it (redraw) only when a message changed
	// something it shows (dirty); View hands it over.
	frame    string
	dirty    bool
	boxCache map[int]cachedBox
}

// NewDashboard makes the dashboard for a run.
func NewDashboard(o DashboardOptions) *Dashboard {
	if o.Stats == nil {
		o.Stats = func() *engine.Stats { return nil }
	}
	if o.Control == nil {
		o.Control = nopController{} // a view without a run to steer: keys do nothing
	}
	d := &Dashboard{opts: o, clock: newFrameClock(o.FPS, tickMsg{}), styles: DefaultStyles(), keys: DefaultKeyMap(),
		dirty: true, boxCache: map[int]cachedBox{}}
	d.c = common{styles: &d.styles, keys: &d.keys}
	d.help = help.New()
	d.help.Styles = d.styles.Help
	d.input = textinput.New()
	d.input.Prompt = "rate: "
	d.input.Placeholder = "500/s, 240/m or a number per second"
	d.input.CharLimit = 32
	d.input.SetStyles(d.styles.Input)
	d.header = newHeaderPane(&d.c)
	for _, p := range d.bodyPanes() {
		p.c = &d.c
	}
	d.footer = footerPane{c: &d.c, help: &d.help, input: &d.input}
	d.c.st = &engine.Stats{} // until the engine publishes
	d.setStats(o.Stats())
	d.setSize(minWidth, 24) // until the terminal says otherwise
	d.redraw()
	return d
}

// Init starts the frame clock.
func (d *Dashboard) Init() tea.Cmd { return d.clock.next() }

// Update routes each message to its handler, then lays out and draws the frame if the message
// changed what it shows.
func (d *Dashboard) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := d.route(msg)
	d.redraw()
	return d, cmd
}

// route hands a message to its handler and returns the handler's command.
func (d *Dashboard) route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tickMsg:
		if d.done != nil {
			return nil // the run is over: nothing changes any more, so the clock stops
		}
		d.setStats(d.opts.Stats())
		return d.clock.next()
	case tea.WindowSizeMsg:
		d.setSize(msg.Width, msg.Height)
		return nil
	case tea.KeyPressMsg:
		return d.handleKey(msg)
	case savedMsg:
		d.saved(msg)
		return nil
	case RunDoneMsg:
		return d.runDone(msg)
	case InputClosedMsg:
		return d.inputClosedNow()
	}
	if d.inputOpen {
		// The text input has messages of its own (paste, cursor).
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		d.dirty = true
		return cmd
	}
	return nil
}

// redraw lays the panes out and draws the frame when something it shows changed, and only
// then: Bubble Tea asks for a view after every message, and most ticks bring the same stats.
func (d *Dashboard) redraw() {
	if d.dirty {
		d.frame = d.render()
		d.dirty = false
	}
}

// View hands over the frame Update drew. It changes nothing, so Bubble Tea (or a test) may ask
// for it at any time, as often as it likes, and always gets the same.
func (d *Dashboard) View() tea.View {
	v := tea.NewView(d.frame)
	v.AltScreen = !d.opts.Inline
	// A BEL in the name would end the terminal's title sequence and let the rest run.
	v.WindowTitle = "rpcstress " + safetext.Line(d.c.st.Name)
	return v
}

// setStats takes a new stats view, if it is new.
func (d *Dashboard) setStats(st *engine.Stats) {
	if st == nil || st == d.c.st || sameTargetViews(st, d.c.st) {
		return
	}
	d.c.st = st
	// A new view from the engine supersedes what the dashboard assumed after a key press.
	d.c.plan = st.Plan
	d.keys.setRateKeys(st.Mode != engine.ModeClosed)
	// Several targets side by side show no latency pane (each target's latency is a column of
	// the targets' table): l has nothing to toggle, so the help does not offer it.
	d.keys.Histogram.SetEnabled(d.c.sideBySide() == nil)
	d.dirty = true
}

// setSize lays the panes out for a terminal of width × height cells.
func (d *Dashboard) setSize(width, height int) {
	d.width, d.height = max(width, 1), max(height, 1)
	d.help.SetWidth(d.width)
	d.input.SetWidth(max(d.width-cellWidth(d.input.Prompt)-1, 1))
	d.dirty = true
}

// runDone shows the end of the run: the final summary and where the snapshot went. It stays
// until a key only when the run ended by itself: a user who stopped it asked to leave (main
// prints the report on the normal screen), and a lost terminal has nobody to press a key.
func (d *Dashboard) runDone(msg RunDoneMsg) tea.Cmd {
	d.done = &msg
	// The frame clock stops here, and the view it pulled last is up to a frame old: in-flight
	// requests drained and the last seconds closed after it. The engine's final view is
	// published before the run is reported done, so the last frame shows the final numbers,
	// the same as the summary under it.
	d.setStats(d.opts.Stats())
	d.inputOpen = false
	d.input.Blur()
	d.c.message, d.c.messageBad = "", false
	d.dirty = true
	if d.opts.ExitOnEnd || d.quitting || d.inputClosed {
		return tea.Quit
	}
	return nil
}

// inputClosedNow stops a run nobody can see or steer any more (an open-ended stage would
// otherwise send forever), and leaves when it is saved.
func (d *Dashboard) inputClosedNow() tea.Cmd {
	d.inputClosed = true
	switch {
	case d.done != nil:
		return tea.Quit
	case !d.quitting && !d.c.st.Done:
		d.quitting = true
		d.opts.Control.Stop(EndTerminalClosed)
	}
	return nil
}

// saved shows the result of a save and records it as an event of the run.
func (d *Dashboard) saved(msg savedMsg) {
	d.saving = false
	d.dirty = true
	if msg.err != nil {
		d.c.setMessage("save failed: "+msg.err.Error(), true)
		return
	}
	d.opts.Control.Mark("save", msg.path)
	d.c.setMessage("saved: "+msg.path, false)
}

// state is the run state the header shows: the engine's, unless the dashboard knows more (a
// quit was asked for and the run is draining, or main said the run is over).
func (d *Dashboard) state() engine.State {
	switch {
	case d.done != nil || d.c.st.Done:
		return engine.StateDone
	case d.quitting:
		return engine.StateDraining
	}
	if d.c.plan.State == "" {
		return "starting" // no plan state published yet
	}
	return d.c.plan.State
}

// nopController stands in when no Controller is given.
type nopController struct{}

func (nopController) SetRate(engine.Rate) {}
func (nopController) Pause()              {}
func (nopController) Resume()             {}
func (nopController) NextStage()          {}
func (nopController) PrevStage()          {}
func (nopController) Hold(bool)           {}
func (nopController) Stop(string)         {}
func (nopController) Mark(string, string) {}
