//go:build unix

package watch

import (
	"strconv"
	"syscall"
)

// fileOwner is the user id that owns path.
func fileOwner(path string) (string, error) {
	var sys syscall.Stat_t
	if err := syscall.Stat(path, &sys); err != nil {
		return "", err
	}
	return strconv.FormatUint(uint64(sys.Uid), 10), nil
}
