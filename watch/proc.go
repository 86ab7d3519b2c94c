package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os/user"
	"strconv"
	"syscall"
	"time"

	"github.com/prometheus/procfs"

	"github.com/rpcstress/rpcstress/engine"
)

// procSource is what a procReader reads of a process; procfs.Proc is one, and tests give
// others to reach the paths /proc does not take on demand (permission refused, a pid reused).
type procSource interface {
	Stat() (procfs.ProcStat, error)
	FileDescriptorsLen() (int, error)
	IO() (procfs.ProcIO, error)
}

// procReader reads one process, a second at a time: CPU and disk I/O are differences between
// two readings, over the wall time between them.
type procReader struct {
	src   procSource
	pid   int
	start uint64 // the process's start time (ticks after boot): a new process under the same pid differs
	// noFDs and noIO are set when this user may not read the process's open files or I/O
	// (another user's process): they are not asked again.
	noFDs, noIO bool
	gone        bool // it exited (or its pid now names another process)

	prev reading // the last reading, the base of the next one's rates
}

// reading is what one look at a process gives.
type reading struct {
	ok          bool
	io          bool // read and write were read
	at          time.Time
	cpu         float64 // CPU seconds used so far
	read, write uint64  // bytes read from and written to storage so far
}

// errGone says the process is no longer there.
var errGone = errors.New("exited")

// newProcReader reads the process once (the base of the first second's rates) and finds
// what this user may not read of it: note says so, for the user.
func newProcReader(src procSource, pid int, now time.Time) (r *procReader, note string, err error) {
	r = &procReader{src: src, pid: pid}
	st, err := src.Stat()
	if err != nil {
		return nil, "", readErr(err)
	}
	r.start = st.Starttime
	var refused []string
	if _, err := src.FileDescriptorsLen(); isPermission(err) {
		r.noFDs = true
		refused = append(refused, "open-file count")
	}
	if _, err := src.IO(); isPermission(err) {
		r.noIO = true
		refused = append(refused, "disk I/O")
	}
	if len(refused) > 0 {
		note = permissionNote(pid, st, refused)
	}
	if _, err := r.read(now); err != nil {
		return nil, "", readErr(err)
	}
	return r, note, nil
}

// permissionNote says what of another user's process cannot be read, and how to read it.
func permissionNote(pid int, st procfs.ProcStat, refused []string) string {
	what := refused[0] + " is"
	if len(refused) == 2 {
		what = refused[0] + " and " + refused[1] + " are"
	}
	who := "only its user and root"
	if owner, err := ownerOf(st); err == nil && owner == "root" {
		who = "only root"
	} else if err == nil {
		who = "only its user (" + owner + ") and root"
	}
	return fmt.Sprintf("its %s not shown: /proc lets %s read them (pid %d: permission denied); "+
		"its CPU, memory and threads are; run rpcstress as that user or as root for the rest", what, who, pid)
}

// ownerOf names the user a process runs as, by the owner of its /proc entry.
func ownerOf(st procfs.ProcStat) (string, error) {
	id, err := fileOwner("/proc/" + strconv.Itoa(st.PID))
	if err != nil {
		return "", err
	}
	if u, err := user.LookupId(id); err == nil {
		return u.Username, nil
	}
	return id, nil
}

// read takes a reading at now and returns the process's use since the last one; nil (no
// error) for the first, which has nothing to compare with. errGone: the process has exited.
func (r *procReader) read(now time.Time) (*engine.ProcUse, error) {
	if r.gone {
		return nil, errGone
	}
	st, err := r.src.Stat()
	if err == nil && st.Starttime != r.start {
		err = fs.ErrNotExist // the pid was reused: the process watched is gone
	}
	if err != nil {
		if isGone(err) {
			r.gone = true
			return nil, errGone
		}
		return nil, err
	}
	cur := reading{ok: true, at: now, cpu: st.CPUTime()}
	use := &engine.ProcUse{RSS: int64(st.ResidentMemory()), Threads: st.NumThreads}
	if !r.noFDs {
		if n, err := r.src.FileDescriptorsLen(); err == nil {
			use.FDs = &n
		}
	}
	if !r.noIO {
		if io, err := r.src.IO(); err == nil {
			cur.read, cur.write, cur.io = io.ReadBytes, io.WriteBytes, true
		}
	}
	prev := r.prev
	r.prev = cur
	wall := now.Sub(prev.at).Seconds()
	if !prev.ok || wall <= 0 {
		return nil, nil
	}
	use.CPU = max(cur.cpu-prev.cpu, 0) / wall * 100
	if cur.io && prev.io {
		rd, wr := perSecond(prev.read, cur.read, wall), perSecond(prev.write, cur.write, wall)
		use.ReadBps, use.WriteBps = &rd, &wr
	}
	return use, nil
}

// perSecond is a counter's increase from a to b over wall seconds (0 when it went back).
func perSecond(a, b uint64, wall float64) float64 {
	if b < a {
		return 0
	}
	return float64(b-a) / wall
}

// isGone reports whether a read failed because the process is no longer there.
func isGone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH)
}

func isPermission(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EPERM)
}

// readErr says what a failed first read of a process means for the user.
func readErr(err error) error {
	switch {
	case isGone(err):
		return errors.New("it exited before the run started")
	case isPermission(err):
		return fmt.Errorf("/proc does not let this user read it (%w): run rpcstress as its user or as root", err)
	}
	return err
}
