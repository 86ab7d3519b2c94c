//go:build !linux

package engine

func newWaker() waker { return newGoTimer() }
