package tui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/internal/safetext"
)

// SearchDashboardOptions wire the find-limit dashboard to a search.
type SearchDashboardOptions struct {
	Name, Target string
	// Progress is the search's latest immutable view; Live the probe in progress as the engine
	// sees it (nil between probes). Both are called once per frame.
	Progress func() *search.Progress
	Live     func() *engine.Stats
	// Stop ends the search and keeps the best answer so far.
	Stop func()
	// FPS is how many frames a second the dashboard draws (DefaultFPS when 0 or less).
	FPS       int
	Inline    bool
	ExitOnEnd bool
	// Now is the clock the probe progress bar runs on (time.Now when nil; tests fix it).
	Now func() time.Time
}

// SearchDoneMsg tells the dashboard the search is over; main sends it when Run returns.
type SearchDoneMsg struct {
	Path string
	Err  error
}

type searchTickMsg struct{}

// searchKeys are the find-limit dashboard's keys: a search has nothing to steer but its end.
type searchKeys struct {
	Stop key.Binding
	Help key.Binding
}

func (k searchKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Stop, k.Help} }
func (k searchKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// SearchDashboard is the live view of `rpcstress find-limit`: the probe in progress with its
// live numbers, the current bounds, and a table of probes that fills in. Like the run
// dashboard, it pulls the search's view on its own frame tick and never makes the search wait.
type SearchDashboard struct {
	opts   SearchDashboardOptions
	clock  frameClock
	styles Styles
	keys   searchKeys
	help   help.Model
	// pane is the screen and all it draws from; Update keeps it current, so View only draws.
	pane searchPane
}

// NewSearchDashboard makes the find-limit dashboard.
func NewSearchDashboard(o SearchDashboardOptions) *SearchDashboard {
	if o.Progress == nil {
		o.Progress = func() *search.Progress { return &search.Progress{} }
	}
	if o.Live == nil {
		o.Live = func() *engine.Stats { return nil }
	}
	if o.Stop == nil {
		o.Stop = func() {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	d := &SearchDashboard{opts: o, clock: newFrameClock(o.FPS, searchTickMsg{}), styles: DefaultStyles()}
	d.keys = searchKeys{
		Stop: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "stop, keep the best answer")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "what the table says")),
	}
	d.help = help.New()
	d.help.Styles = d.styles.Help
	bar := progress.New(progress.WithColors(d.styles.ProgressFull), progress.WithFillCharacters('█', '░'), progress.WithoutPercentage())
	bar.EmptyColor = d.styles.ProgressEmpty
	// The profile's name and URL come from a file: safe to show (safetext), in the title too,
	// where a BEL would end the terminal's title sequence and let the rest run.
	d.pane = searchPane{styles: &d.styles, bar: bar, name: safetext.Line(o.Name), target: safetext.Line(o.Target)}
	d.setSize(minWidth, 24) // until the terminal says otherwise
	d.pull()
	return d
}

// Init starts the frame clock.
func (d *SearchDashboard) Init() tea.Cmd { return d.clock.next() }

// pull takes the latest views of the search and of the probe in progress.
func (d *SearchDashboard) pull() {
	d.pane.pr = d.opts.Progress()
	d.pane.live = d.opts.Live()
	d.pane.now = d.opts.Now()
}

// Update routes messages.
func (d *SearchDashboard) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case searchTickMsg:
		if d.pane.done != nil {
			return d, nil
		}
		d.pull()
		return d, d.clock.next()
	case tea.WindowSizeMsg:
		d.setSize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		return d, d.handleKey(msg)
	case SearchDoneMsg:
		d.pane.done = &msg
		d.pull()
		d.pane.live = nil
		if d.opts.ExitOnEnd {
			return d, tea.Quit
		}
	}
	return d, nil
}

// setSize gives the screen width × height cells; the keys line is cut to the width.
func (d *SearchDashboard) setSize(width, height int) {
	d.pane.width, d.pane.height = max(width, 1), max(height, 1)
	d.help.SetWidth(d.pane.width)
	d.pane.footer = d.help.ShortHelpView(d.keys.ShortHelp())
}

func (d *SearchDashboard) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case d.pane.done != nil:
		return tea.Quit // the answer stays on screen until any key
	case key.Matches(msg, d.keys.Stop):
		if d.pane.stopping {
			return tea.Quit // main still waits for the search and saves it
		}
		d.pane.stopping = true
		d.opts.Stop()
	case key.Matches(msg, d.keys.Help):
		d.pane.showHelp = !d.pane.showHelp
	}
	return nil
}

// View draws the dashboard from what Update gave its pane; it changes nothing.
func (d *SearchDashboard) View() tea.View {
	v := tea.NewView(d.pane.View())
	v.AltScreen = !d.opts.Inline
	v.WindowTitle = "rpcstress find-limit " + d.pane.name
	return v
}
