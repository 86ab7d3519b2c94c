package outfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// pipeStall bounds how long a write waits for a FIFO's reader to take the data: a reader that
// stopped reading must not hold the end of a run forever (a signal cannot interrupt a write).
// A live reader takes a snapshot of a few megabytes in milliseconds.
const pipeStall = 10 * time.Second

// Write writes data to the target: a regular or new file atomically, a device or a FIFO through.
// It checks the path again first, as it may have changed since the check before the work (a
// file that has become a FIFO or a device is never renamed over). ctx bounds a write through.
func (t Target) Write(ctx context.Context, data []byte) error {
	now, err := check(t.Path, t.mkdir)
	if err != nil {
		return err
	}
	if now.Stored() {
		return replace(now.real, func(w io.Writer) error {
			_, err := w.Write(data)
			return err
		})
	}
	return writeThrough(ctx, now, data)
}

// writeThrough writes data into a device or a FIFO as it is (never renaming over it). The open
// does not block: a FIFO without a reader fails at once (ENXIO) instead of waiting for one.
// Go's poller serves the FIFO, so a write deadline bounds a reader that stops reading.
func writeThrough(ctx context.Context, t Target, data []byte) error {
	f, err := os.OpenFile(t.real, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if t.Kind == FIFO && errors.Is(err, syscall.ENXIO) {
		return fmt.Errorf("is a FIFO (named pipe) with no reader: start the reader first (e.g. cat %s > run.json) or write to a regular file", t.Path)
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", t.Kind, plain(err))
	}
	start := time.Now()
	deadline := start.Add(pipeStall)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	// A device the poller cannot watch (/dev/null) refuses deadlines: its writes do not block.
	_ = f.SetWriteDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = f.SetWriteDeadline(time.Now()) })
	_, err = f.Write(data)
	stop()
	cerr := f.Close()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded) && errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("writing %s: %w", t.Kind, ctx.Err())
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("writing %s: its reader did not take it within %s: check the reader, or write to a regular file", t.Kind, deadline.Sub(start).Round(time.Millisecond))
	case errors.Is(err, syscall.EPIPE):
		return fmt.Errorf("writing %s: its reader closed it before the end", t.Kind)
	case err != nil:
		return fmt.Errorf("writing %s: %w", t.Kind, plain(err))
	case cerr != nil:
		return fmt.Errorf("writing %s: %w", t.Kind, plain(cerr))
	}
	return nil
}
