//go:build !unix

package watch

import "errors"

// fileOwner is Unix's: elsewhere there is no /proc to watch, and no owner to name.
func fileOwner(string) (string, error) {
	return "", errors.New("no file owners on this system")
}
