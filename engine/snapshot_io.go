package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteSnapshot writes s to path as indented JSON. It writes a temporary file beside path, syncs
// it and renames it over path, so a reader (or a crash) sees the old file or the new one, never
// half of one.
func WriteSnapshot(path string, s *Snapshot) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding snapshot: %w", err)
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s for the snapshot: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing snapshot in %s: %w", dir, err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("syncing snapshot %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving snapshot %s: %w", path, err)
	}
	return nil
}

// ReadSnapshot loads a snapshot and checks that it is one this version understands.
func ReadSnapshot(path string) (*Snapshot, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
	}
	s, err := DecodeSnapshot(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// DecodeSnapshot parses snapshot JSON, refusing other schemas with a word on what to do.
func DecodeSnapshot(data []byte) (*Snapshot, error) {
	var head struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a snapshot (invalid or truncated JSON: %w)", err)
	}
	switch {
	case head.Schema == nil:
		return nil, errors.New("not an rpcstress snapshot: it has no \"schema\" field")
	case *head.Schema == SnapshotSchema:
	case strings.HasPrefix(*head.Schema, "rpcstress.snapshot/"):
		return nil, fmt.Errorf("snapshot schema %q is not %q: it was written by another version of rpcstress; use that version to read it", *head.Schema, SnapshotSchema)
	default:
		return nil, fmt.Errorf("not an rpcstress snapshot: schema %q", *head.Schema)
	}
	var s Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("snapshot fields: %w", err)
	}
	return &s, nil
}
