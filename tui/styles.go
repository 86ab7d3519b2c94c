package tui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// Styles is every colour and text decoration of the dashboard, in one place.
//
// Colours are the 16 basic ANSI colours, which every terminal (tmux, screen, a Linux console)
// themes for its own background; Lip Gloss v2 styles are written at full fidelity and Bubble
// Tea downsamples them to the terminal's colour profile when it writes the frame, so NO_COLOR
// (profile Ascii) keeps bold, faint and reverse but no colour, and a non-terminal gets plain text.
// That is why no style here carries meaning by colour alone: every highlighted thing also has a
// decoration and a text label.
type Styles struct {
	Title    lipgloss.Style // the run's name in the header
	Muted    lipgloss.Style // secondary text: units, the target URL, hints
	Label    lipgloss.Style // row and column labels
	Section  lipgloss.Style // a pane's title
	Value    lipgloss.Style // a number that matters (achieved rate)
	Warn     lipgloss.Style // "tester saturated", dropped requests
	Bad      lipgloss.Style // transport errors, failed saves
	Limited  lipgloss.Style // the 429 row: rate-limited answers
	Good     lipgloss.Style // success messages ("saved: …")
	Spark    lipgloss.Style // the throughput chart
	Spark429 lipgloss.Style // the rate-limited share chart
	Bar      lipgloss.Style // latency bars

	// States are the header badges, by run state; each shows its name in capitals too.
	States map[string]lipgloss.Style

	// Box frames a pane when there is room for borders; Flat is the borderless frame of the
	// compact layout. Pane sizes are computed from their frame sizes.
	Box  lipgloss.Style
	Flat lipgloss.Style

	ProgressFull  color.Color // the stage progress bar
	ProgressEmpty color.Color

	Help  help.Styles
	Input textinput.Styles
}

// DefaultStyles returns the dashboard's styles.
func DefaultStyles() Styles {
	s := Styles{
		Title:    lipgloss.NewStyle().Bold(true),
		Muted:    lipgloss.NewStyle().Faint(true),
		Label:    lipgloss.NewStyle().Bold(true),
		Section:  lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Cyan),
		Value:    lipgloss.NewStyle().Bold(true),
		Warn:     lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Yellow),
		Bad:      lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Red),
		Limited:  lipgloss.NewStyle().Bold(true).Reverse(true).Foreground(lipgloss.Yellow),
		Good:     lipgloss.NewStyle().Foreground(lipgloss.Green),
		Spark:    lipgloss.NewStyle().Foreground(lipgloss.Green),
		Spark429: lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		Bar:      lipgloss.NewStyle().Foreground(lipgloss.Blue),
		Box: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
			BorderForeground(lipgloss.BrightBlack).Padding(0, 1),
		Flat:          lipgloss.NewStyle(),
		ProgressFull:  lipgloss.Cyan,
		ProgressEmpty: lipgloss.BrightBlack,
	}
	badge := lipgloss.NewStyle().Bold(true).Reverse(true).Padding(0, 1)
	s.States = map[string]lipgloss.Style{
		"running":  badge.Foreground(lipgloss.Green),
		"paused":   badge.Foreground(lipgloss.Yellow),
		"held":     badge.Foreground(lipgloss.Cyan),
		"draining": badge.Foreground(lipgloss.Magenta),
		"done":     badge,
	}

	s.Help = help.Styles{
		ShortKey:       lipgloss.NewStyle().Bold(true),
		ShortDesc:      lipgloss.NewStyle().Faint(true),
		ShortSeparator: lipgloss.NewStyle().Faint(true),
		Ellipsis:       lipgloss.NewStyle().Faint(true),
		FullKey:        lipgloss.NewStyle().Bold(true),
		FullDesc:       lipgloss.NewStyle().Faint(true),
		FullSeparator:  lipgloss.NewStyle().Faint(true),
	}

	s.Input = textinput.DefaultStyles(true)
	s.Input.Focused.Prompt = lipgloss.NewStyle().Bold(true)
	s.Input.Focused.Text = lipgloss.NewStyle()
	s.Input.Focused.Placeholder = lipgloss.NewStyle().Faint(true)
	s.Input.Cursor.Color = lipgloss.Cyan
	s.Input.Cursor.Blink = false // a steady cursor: no blink messages, no redraws for nothing
	return s
}

// state returns the badge style for a run state.
func (s *Styles) state(name string) lipgloss.Style {
	if st, ok := s.States[name]; ok {
		return st
	}
	return s.States["done"]
}
