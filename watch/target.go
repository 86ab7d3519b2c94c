package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prometheus/procfs"
)

// Target names a process to watch as the user wrote it: a pid ("1234"), a process name
// ("geth") or a pid file ("/run/geth.pid": anything with a slash or ending in .pid).
type Target struct {
	Spec string
	// Where says where it was written, to begin messages with: "p.toml:4: watch[1]" or
	// "--watch-pid".
	Where string
}

// maxPidFile is the most of a pid file read: a pid and a newline; anything much longer is not
// a pid file.
const maxPidFile = 64

// resolved is a Target found in /proc.
type resolved struct {
	pid     int
	name    string // the process name (comm)
	command string
}

// isPidFile reports whether spec names a pid file rather than a process.
func isPidFile(spec string) bool {
	return strings.ContainsRune(spec, '/') || strings.HasSuffix(spec, ".pid")
}

// resolve finds the process t names; self is rpcstress's own pid, which a name never matches
// (`rpcstress --watch-pid rpcstress` would watch the tester, which is always watched anyway).
func resolve(pfs procfs.FS, t Target, self int) (resolved, error) {
	spec := strings.TrimSpace(t.Spec)
	switch {
	case spec == "":
		return resolved{}, errors.New("is empty: give a pid (1234), a process name (geth) or a pid file (/run/geth.pid)")
	case isPidFile(spec):
		pid, err := readPidFile(spec)
		if err != nil {
			return resolved{}, err
		}
		r, err := byPid(pfs, pid)
		if err != nil {
			return resolved{}, fmt.Errorf("pid file %s says %d, but %w", spec, pid, err)
		}
		return r, nil
	case isDigits(spec):
		pid, err := strconv.Atoi(spec)
		if err != nil || pid < 1 {
			return resolved{}, fmt.Errorf("%q is not a pid: a pid is a whole number from 1", spec)
		}
		return byPid(pfs, pid)
	}
	return byName(pfs, spec, self)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// readPidFile reads the pid a pid file holds.
func readPidFile(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is said once, first
		}
		return 0, fmt.Errorf("pid file %s: %w: give the file the node writes its pid to, or its pid", path, err)
	}
	defer f.Close()
	buf := make([]byte, maxPidFile+1)
	n, err := f.Read(buf)
	if err != nil && n == 0 {
		return 0, fmt.Errorf("pid file %s: %w", path, err)
	}
	text := strings.TrimSpace(string(buf[:n]))
	pid, err := strconv.Atoi(text)
	if n > maxPidFile || err != nil || pid < 1 {
		return 0, fmt.Errorf("pid file %s holds %q, not a pid: a pid file holds one number", path, clip(text, 40))
	}
	return pid, nil
}

// byPid finds a process by its pid.
func byPid(pfs procfs.FS, pid int) (resolved, error) {
	p, err := pfs.Proc(pid)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return resolved{}, fmt.Errorf("no process has pid %d (it may have exited): check it with ps -p %d", pid, pid)
		}
		return resolved{}, fmt.Errorf("pid %d: %w", pid, err)
	}
	st, err := p.Stat()
	if err != nil {
		return resolved{}, fmt.Errorf("pid %d: %w", pid, readErr(err))
	}
	return resolved{pid: pid, name: nameOf(p, st.Comm), command: commandOf(p, st.Comm)}, nil
}

// byName finds the one process of that name, as pgrep -x does: its process name (comm), or the
// file name of its command. None, or more than one, is an error listing what it found.
func byName(pfs procfs.FS, name string, self int) (resolved, error) {
	procs, err := pfs.AllProcs()
	if err != nil {
		return resolved{}, fmt.Errorf("listing processes: %w", err)
	}
	var found []resolved
	for _, p := range procs {
		if p.PID == self {
			continue
		}
		comm, err := p.Comm()
		if err != nil {
			continue // exited meanwhile, or not ours to read
		}
		cmd, _ := p.CmdLine()
		if comm != name && (len(cmd) == 0 || filepath.Base(cmd[0]) != name) {
			continue
		}
		found = append(found, resolved{pid: p.PID, name: nameOf(p, comm), command: commandOf(p, comm)})
	}
	switch len(found) {
	case 0:
		return resolved{}, fmt.Errorf("no process named %q is running (looked for it as pgrep -x does): start it first, or give its pid or pid file", name)
	case 1:
		return found[0], nil
	}
	list := make([]string, 0, len(found))
	for i, r := range found {
		if i == 5 {
			list = append(list, fmt.Sprintf("and %d more", len(found)-i))
			break
		}
		list = append(list, fmt.Sprintf("%d (%s)", r.pid, clip(r.command, 40)))
	}
	return resolved{}, fmt.Errorf("%d processes are named %q: %s: watch one by its pid or pid file", len(found), name, strings.Join(list, ", "))
}

// commLen is the most of a process name the kernel keeps (TASK_COMM_LEN less its NUL).
const commLen = 15

// nameOf is a process's name: its comm, or where the kernel cut that short, the file name of
// its command when it begins so.
func nameOf(p procfs.Proc, comm string) string {
	if len(comm) < commLen {
		return comm
	}
	if cmd, err := p.CmdLine(); err == nil && len(cmd) > 0 && strings.HasPrefix(filepath.Base(cmd[0]), comm) {
		return filepath.Base(cmd[0])
	}
	return comm
}

// commandOf is a process's command line on one line, or its name in brackets (a kernel thread).
func commandOf(p procfs.Proc, comm string) string {
	cmd, err := p.CmdLine()
	if err != nil || len(cmd) == 0 {
		return "[" + comm + "]"
	}
	return clip(strings.Join(cmd, " "), 200)
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
