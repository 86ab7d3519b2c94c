package tui

import "charm.land/bubbles/v2/key"

// KeyMap is every key of the dashboard. The same bindings drive Update and the help view, so
// what the help says is what the keys do.
type KeyMap struct {
	RateUp    key.Binding
	RateDown  key.Binding
	RateSet   key.Binding
	NextStage key.Binding
	PrevStage key.Binding
	Pause     key.Binding
	Hold      key.Binding
	Save      key.Binding
	Histogram key.Binding
	Help      key.Binding
	Quit      key.Binding

	// Confirm and Cancel are the keys of the rate input.
	Confirm key.Binding
	Cancel  key.Binding
}

// DefaultKeyMap returns the dashboard's keys, as the issue and README list them.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		RateUp:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "+10%")),
		RateDown:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "-10%")),
		RateSet:   key.NewBinding(key.WithKeys("="), key.WithHelp("=", "set rate")),
		NextStage: key.NewBinding(key.WithKeys("right", "n"), key.WithHelp("→/n", "next stage")),
		PrevStage: key.NewBinding(key.WithKeys("left", "b"), key.WithHelp("←/b", "previous stage")),
		Pause:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause")),
		Hold:      key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hold stage")),
		Save:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save")),
		Histogram: key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "latency bars")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "more keys")),
		Quit:      key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Confirm:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "set")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp is the one-line help: the keys used most while tuning a limiter, quit and help
// among the first, since a narrow terminal cuts the line from the end.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.RateUp, k.RateDown, k.RateSet, k.Pause, k.Save, k.Quit, k.Help, k.NextStage, k.Hold}
}

// FullHelp is every key, in columns: rate, plan, view and run.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.RateUp, k.RateDown, k.RateSet, k.Pause},
		{k.NextStage, k.PrevStage, k.Hold},
		{k.Save, k.Histogram, k.Help, k.Quit},
	}
}

// setRateKeys turns the rate keys on or off: a closed-loop run has no rate to steer
// (connections set the pace), and a disabled binding neither matches nor shows in the help.
func (k *KeyMap) setRateKeys(on bool) {
	k.RateUp.SetEnabled(on)
	k.RateDown.SetEnabled(on)
	k.RateSet.SetEnabled(on)
}

// inputHelp is the help shown while the rate input is open.
type inputHelp struct{ k *KeyMap }

func (h inputHelp) ShortHelp() []key.Binding  { return []key.Binding{h.k.Confirm, h.k.Cancel} }
func (h inputHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
