//go:build unix

package harvest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/internal/outfile/outfiletest"
)

// TestHarvestDiskFull: a harvest whose files do not fit fails with the write's error, and no
// manifest in the folder says "complete": nothing half-written passes for whole.
func TestHarvestDiskFull(t *testing.T) {
	dir := outfiletest.Tmpfs(t, "64k")
	// A complete harvest of another day is in the folder: a failed one must not keep its word.
	old := `{"complete": true}`
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fakeEVM{head: 3000} // ~2,000 transactions: far more than 64 kB of hashes
	_, err := Run(context.Background(), Options{URL: f.start(t), Chain: EVM, Blocks: 3000, OutDir: dir, Rate: 10000, Batch: 100})
	if !errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("err %v, want the disk-full error", err)
	}
	t.Logf("the error: %v", err)
	b, rerr := os.ReadFile(filepath.Join(dir, ManifestName))
	if rerr == nil {
		var m Manifest
		if json.Unmarshal(b, &m) == nil && m.Complete {
			t.Fatalf("a full disk left a manifest that says complete: %s", b)
		}
	}
}
