package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/outfile"
)

// runOutput is where a run's snapshots go, the one owner of its files: the final snapshot at
// the target checked before the run; the periodic ones (--save-every) rewritten there while it
// goes, so a crash loses at most an interval and a final write that fails (a full disk) still
// leaves the last of them whole; and each `s` save in a file of its own, so the end of the run
// does not overwrite it.
type runOutput struct {
	target    outfile.Target
	saveBase  string // the `s` saves are named after it: BASE-save1.json, BASE-save2.json …
	saveMkdir bool   // saveBase is rpcstress's own runs/… name: its folder may be made
	// write is engine.SaveSnapshot; a test puts a failing one here.
	write func(context.Context, outfile.Target, *engine.Snapshot) error

	mu          sync.Mutex
	periodicAt  time.Duration // run time of the last periodic snapshot written, if periodicOK
	periodicOK  bool
	lastSaveNum int
}

// newRunOutput checks where the run will write, before anything is sent: out (--out) as the
// user named it, or else rpcstress's default name, whose folder (runs/) it creates.
func newRunOutput(out, defaultPath string) (*runOutput, error) {
	o := &runOutput{write: engine.SaveSnapshot, saveBase: defaultPath, saveMkdir: true}
	if out == "" {
		t, err := outfile.CheckDefault(defaultPath)
		if err != nil {
			return nil, fmt.Errorf("the snapshot %s: %w: choose a file with --out", defaultPath, err)
		}
		o.target = t
		return o, nil
	}
	t, err := outfile.Check(out)
	if err != nil {
		return nil, fmt.Errorf("--out %s: %w", out, err)
	}
	o.target = t
	if t.Stored() {
		o.saveBase, o.saveMkdir = out, false
	}
	return o, nil
}

// note says, before the run, what a device or a FIFO as --out changes; "" for a file.
func (o *runOutput) note() string {
	if o.target.Stored() {
		return ""
	}
	return fmt.Sprintf("--out %s is %s: the snapshot goes there once, at the end (no periodic snapshots)", o.target.Path, o.target.Kind)
}

// periodic rewrites the target with a snapshot of the run so far. A device or a FIFO gets none:
// it would receive a stream of snapshots instead of one.
func (o *runOutput) periodic(ctx context.Context, snap *engine.Snapshot) error {
	if !o.target.Stored() {
		return nil
	}
	if err := o.write(ctx, o.target, snap); err != nil {
		return err
	}
	o.mu.Lock()
	o.periodicAt, o.periodicOK = snap.EndedAt.Sub(snap.StartedAt), true
	o.mu.Unlock()
	return nil
}

// final writes the run's last snapshot. When that fails, the error says where the run's numbers
// still are: the last periodic snapshot, which a failed write leaves whole, or only the report.
func (o *runOutput) final(ctx context.Context, snap *engine.Snapshot) error {
	err := o.write(ctx, o.target, snap)
	if err == nil {
		return nil
	}
	o.mu.Lock()
	at, ok := o.periodicAt, o.periodicOK
	o.mu.Unlock()
	if ok {
		return fmt.Errorf("%w; the last periodic snapshot (t=%s) is still at %s", err, at.Round(time.Second), o.target.Path)
	}
	return fmt.Errorf("%w; no periodic snapshot was saved, so the report is the only copy of the numbers", err)
}

// save writes a snapshot of the run so far (the dashboard's s) to a new file of its own beside
// the final snapshot, and returns its path.
func (o *runOutput) save(ctx context.Context, snap *engine.Snapshot) (string, error) {
	o.mu.Lock()
	n := o.lastSaveNum + 1
	for ; ; n++ { // never over an older run's save
		if _, err := os.Lstat(o.savePath(n)); errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	o.lastSaveNum = n
	o.mu.Unlock()
	path := o.savePath(n)
	check := outfile.Check
	if o.saveMkdir {
		check = outfile.CheckDefault
	}
	t, err := check(path)
	if err != nil {
		return path, fmt.Errorf("snapshot %s: %w", path, err)
	}
	return path, o.write(ctx, t, snap)
}

// savePath is the name of the n-th `s` save: run.json → run-save1.json.
func (o *runOutput) savePath(n int) string {
	base, ext := o.saveBase, ".json"
	if strings.HasSuffix(base, ext) {
		base = strings.TrimSuffix(base, ext)
	} else {
		ext = ""
	}
	return fmt.Sprintf("%s-save%d%s", base, n, ext)
}
