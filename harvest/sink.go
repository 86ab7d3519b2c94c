package harvest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/rpcstress/rpcstress/internal/outfile"
)

// set is an ordered set of lines: values are deduplicated and kept in the order first seen, so a
// file reads from the oldest block to the newest.
type set struct {
	seen  map[string]struct{}
	lines []string
}

func (s *set) add(v string) {
	if v == "" {
		return
	}
	if s.seen == nil {
		s.seen = map[string]struct{}{}
	}
	if _, ok := s.seen[v]; ok {
		return
	}
	s.seen[v] = struct{}{}
	s.lines = append(s.lines, v)
}

// sink collects the harvest's files by name.
type sink struct {
	files map[string]*set
	about map[string]string // what each file holds, for the manifest
}

func newSink() *sink { return &sink{files: map[string]*set{}, about: map[string]string{}} }

// file declares a file with what it holds; add to it with sink.add.
func (k *sink) file(name, about string) *set {
	s := &set{}
	k.files[name] = s
	k.about[name] = about
	return s
}

// checkOut checks every file's path before anything is read, so a folder that cannot be
// written fails in a second, not after minutes of reading.
func (k *sink) checkOut(dir string) (map[string]outfile.Target, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("--out %s is a file, not a folder: choose another path", dir)
	}
	ts := map[string]outfile.Target{}
	names := append(k.names(), ManifestName)
	for _, n := range names {
		t, err := outfile.CheckDefault(filepath.Join(dir, n))
		if err != nil {
			return nil, fmt.Errorf("the output %s %w", filepath.Join(dir, n), err)
		}
		ts[n] = t
	}
	return ts, nil
}

func (k *sink) names() []string {
	ns := make([]string, 0, len(k.files))
	for n := range k.files {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// write writes every file, then the manifest. An error stops it: the manifest, written last, is
// then missing or the old one, so nothing half-written passes for whole.
func (k *sink) write(ctx context.Context, ts map[string]outfile.Target, m *Manifest) error {
	// An older harvest's manifest goes first: if this one fails halfway, the folder must not
	// keep a manifest that calls its mix of old and new files complete.
	if t := ts[ManifestName]; t.Stored() {
		if err := os.Remove(t.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", t.Path, err)
		}
	}
	m.Files = m.Files[:0]
	for _, n := range k.names() {
		s := k.files[n]
		var b bytes.Buffer
		for _, l := range s.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		if err := ts[n].Write(ctx, b.Bytes()); err != nil {
			return fmt.Errorf("%s: %w", ts[n].Path, err)
		}
		m.Files = append(m.Files, ManifestEntry{Name: n, Lines: len(s.lines), About: k.about[n]})
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := ts[ManifestName].Write(ctx, append(data, '\n')); err != nil {
		return fmt.Errorf("%s: %w", ts[ManifestName].Path, err)
	}
	return nil
}
