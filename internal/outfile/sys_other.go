//go:build !unix

package outfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// canWrite leaves the decision to the write itself where there is no access(2).
func canWrite(string) error { return nil }

// replace is the atomic replace where renameio does not go (it is Unix only: elsewhere a rename
// over a file is not atomic, its README says). The same steps, so a failed write still leaves
// the old file whole; permissions are the system's default.
func replace(path string, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("creating a temporary file in %s: %w", dir, plain(err))
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename
	err = fill(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing: %w", plain(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving: %w", plain(err))
	}
	return nil
}
