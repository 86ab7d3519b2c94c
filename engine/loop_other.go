//go:build !linux

package engine

import "context"

// evLoop is the event loop of Linux (loop_linux.go); elsewhere the workers send.
type evLoop struct{ w *worker }

func newLoop(context.Context, *pool) *evLoop { return nil }

func (l *evLoop) run()  {}
func (l *evLoop) kick() {}

func (l *evLoop) tickWaker() waker { return nil }
