//go:build unix

package engine

import (
	"fmt"
	"syscall"
)

// fdReserve is what the process needs besides its connections: stdio, the terminal, the
// snapshot file, the Go runtime's poller, a mock node in --demo.
const fdReserve = 64

// checkFDLimit refuses a run whose connections cannot all be opened, before any request is sent:
// better a clear word now than a storm of "too many open files" mid-run. It first raises the soft
// limit to the hard one, as most servers do, since that needs no privilege.
func checkFDLimit(conns int) error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil // cannot tell; the run will show errors if it comes to that
	}
	need := uint64(conns) + fdReserve
	if uint64(lim.Cur) < need && lim.Max > lim.Cur {
		raised := lim
		raised.Cur = raiseTo(lim.Cur, lim.Max, need)
		if syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised) == nil {
			lim = raised
		}
	}
	if uint64(lim.Cur) < need {
		return fmt.Errorf("connections = %d needs about %d file descriptors but this process may open only %d: "+
			"raise the limit with `ulimit -n %d` (hard limit %d) or lower connections", conns, need, lim.Cur, need, lim.Max)
	}
	return nil
}

// raiseTo is the soft limit cur raised towards need, at most to the hard limit: generic because
// Rlimit's fields are uint64 on Linux and int64 on the BSDs.
func raiseTo[T int64 | uint64](cur, hard T, need uint64) T {
	if need > uint64(hard) {
		return hard
	}
	return max(T(need), cur)
}
