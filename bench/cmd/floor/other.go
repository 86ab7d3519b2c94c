//go:build !linux

// Command floor is a Linux measurement (raw epoll, timerfd, SO_TIMESTAMPNS); see main.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "floor: Linux only (epoll, timerfd, SO_TIMESTAMPNS)")
	os.Exit(1)
}
