package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/rpcstress/rpcstress/internal/outfile"
)

// EncodeSnapshot is a snapshot as written to disk: indented JSON ending in a newline.
func EncodeSnapshot(s *Snapshot) ([]byte, error) {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding snapshot: %w", err)
	}
	return append(data, '\n'), nil
}

// SaveSnapshot writes s to a target checked before the work (outfile's rules: a file is
// replaced atomically, so a reader, a crash or a full disk sees the old file or the new one,
// never half of one; a device or a FIFO is written through).
func SaveSnapshot(ctx context.Context, t outfile.Target, s *Snapshot) error {
	data, err := EncodeSnapshot(s)
	if err != nil {
		return err
	}
	if err := t.Write(ctx, data); err != nil {
		return fmt.Errorf("snapshot %s: %w", t.Path, err)
	}
	return nil
}

// WriteSnapshot checks path and saves s there at once: for a path named after the work is done.
// Commands check their path before the work and call SaveSnapshot after it.
func WriteSnapshot(path string, s *Snapshot) error {
	t, err := outfile.Check(path)
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return SaveSnapshot(context.Background(), t, s)
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
