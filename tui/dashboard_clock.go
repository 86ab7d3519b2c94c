package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameClock is a dashboard's frame tick: one message a frame, each re-arming the next, on
// which the dashboard pulls the latest view of what it watches. So its cost follows the frame
// rate, never the request rate, and what it watches never waits for it.
type frameClock struct {
	every time.Duration
	msg   tea.Msg
}

// newFrameClock ticks msg fps times a second (DefaultFPS when fps is 0 or less).
func newFrameClock(fps int, msg tea.Msg) frameClock {
	if fps <= 0 {
		fps = DefaultFPS
	}
	return frameClock{every: time.Second / time.Duration(fps), msg: msg}
}

// next arms the next frame.
func (c frameClock) next() tea.Cmd {
	msg := c.msg
	return tea.Tick(c.every, func(time.Time) tea.Msg { return msg })
}
