//go:build unix

package outfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
	"golang.org/x/sys/unix"
)

// canWrite asks the kernel whether this user may write path (permissions, ACLs, a read-only
// mount). Root passes it for any file: checkWritable adds the mode rule for that.
func canWrite(path string) error {
	return unix.Access(path, unix.W_OK)
}

// keepOwner gives the temporary file f the owner of the file it replaces, where this process
// may (as root): replacing a user's file must not hand it to root. Elsewhere it cannot, and
// the new file is this user's, as any editor's save would make it.
func keepOwner(f *os.File, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		return
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

// replace writes a temporary file beside path with fill, syncs it and renames it over path: a
// reader (or a crash, or a full disk) sees the old file or the new one, never half of one. The
// old file's permissions are kept (renameio), and its owner where this process may set it.
func replace(path string, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	pf, err := renameio.NewPendingFile(path, renameio.WithTempDir(dir),
		renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
	if err != nil {
		return fmt.Errorf("creating a temporary file in %s: %w", dir, plain(err))
	}
	defer pf.Cleanup() //nolint:errcheck // a no-op after the rename; else the error is returned below
	keepOwner(pf.File, path)
	if err := fill(pf); err != nil {
		return fmt.Errorf("writing: %w", plain(err))
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("saving: %w", plain(err))
	}
	syncDir(dir)
	return nil
}

// syncDir makes the rename itself durable. Best effort: the new file is in place and whole
// either way; some file systems refuse to sync a directory.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
