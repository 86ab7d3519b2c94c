//go:build unix

package profiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// TestNotRegularFilesRefused: every file a profile names, and the profile itself, is refused
// with file:line, the field and a fix when it is a FIFO (or another file that is not a regular
// one), before it is opened. Before, opening a FIFO nobody writes to blocked the load forever
// (validate and runs hung, deaf to Ctrl-C).
func TestNotRegularFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	outfiletest.Mkfifo(t, fifo)
	if err := os.WriteFile(filepath.Join(dir, "targets.txt"), []byte("POST http://127.0.0.1:1/\n@pipe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	const stage = "[[stage]]\nrate = \"1/s\"\nduration = \"1s\"\n"
	tests := []struct {
		name string
		load func() error
		want []string // all in the error
	}{
		// A request body from a FIFO.
		{"body_file", func() error {
			return loadProfile(t, dir, "url = \"http://h\"\n[[request]]\nbody_file = \"pipe\"\n"+stage)
		}, []string{"p.toml:3", "request[1].body_file", `"pipe" is a pipe (FIFO), not a regular file`, "save the content to a regular file"}},
		// The lines of a template.
		{"line file", func() error {
			return loadProfile(t, dir, "url = \"http://h\"\n[[request]]\nmethod = \"m\"\nparams = ['{{line \"pipe\"}}']\n"+stage)
		}, []string{"p.toml:4", "request[1].params[1]", "is a pipe (FIFO), not a regular file"}},
		// A target file.
		{"targets", func() error {
			return loadProfile(t, dir, "targets = \"pipe\"\n"+stage)
		}, []string{"p.toml:1", "targets", "is a pipe (FIFO), not a regular file"}},
		// A target's @body file, named inside a target file.
		{"target body", func() error {
			return loadProfile(t, dir, "targets = \"targets.txt\"\n"+stage)
		}, []string{"targets.txt:2", "is a pipe (FIFO), not a regular file"}},
		// A CA certificate.
		{"ca_file", func() error {
			return loadProfile(t, dir, "url = \"https://h\"\nca_file = \"pipe\"\n[[request]]\nmethod = \"m\"\n"+stage)
		}, []string{"p.toml:2", "ca_file", "is a pipe (FIFO), not a regular file"}},
		// A directory where a file is expected: said as such, with its own fix.
		{"body_file directory", func() error {
			return loadProfile(t, dir, "url = \"http://h\"\n[[request]]\nbody_file = \"adir\"\n"+stage)
		}, []string{"p.toml:3", `"adir" is a directory, not a regular file: name a file in it`}},
		// The profile itself.
		{"profile", func() error {
			_, err := Load(fifo, nil)
			return err
		}, []string{"profile " + fifo + ": is a pipe (FIFO), not a regular file"}},
		// A bare target file (--targets FILE), e.g. /dev/stdin on a pipe.
		{"--targets", func() error {
			_, err := FromTargets(fifo, TargetOptions{Rate: 1, Duration: time.Second}, nil)
			return err
		}, []string{"target file " + fifo + ": is a pipe (FIFO), not a regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tt.load() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the load still waits on the FIFO after 10 s")
			}
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if strings.Contains(err.Error(), "put the file next to the profile") {
				t.Errorf("the not-found advice does not fit here:\n%v", err)
			}
		})
	}
}

// loadProfile writes src as p.toml into dir and loads it.
func loadProfile(t *testing.T, dir, src string) error {
	t.Helper()
	p := filepath.Join(dir, "p.toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p, nil)
	return err
}
