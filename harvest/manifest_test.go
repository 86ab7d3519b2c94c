package harvest

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestDecodeManifest: what the sink writes, DecodeManifest reads back whole (the profiles read
// a folder's chain with it), and a manifest that is not JSON is an error naming the file.
func TestDecodeManifest(t *testing.T) {
	dir := t.TempDir()
	k := newSink()
	k.file("tx_hashes.txt", "transaction hashes").add("0xaa")
	ts, err := k.checkOut(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := &Manifest{Chain: "solana", Source: "http://127.0.0.1:8899", Head: 9, From: 1, To: 9, Read: 9,
		Complete: true, Started: at, Finished: at.Add(time.Second), Requests: 3, Skipped: []string{"logs"}}
	if err := k.write(context.Background(), ts, want); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, wrote %+v", got, want)
	}
	if _, err := DecodeManifest([]byte("chain = solana")); err == nil || !strings.Contains(err.Error(), ManifestName) {
		t.Errorf("not JSON: error %v, want one naming %s", err, ManifestName)
	}
}

// FuzzDecodeManifest: any bytes in a folder's manifest.json give a manifest or an error, never
// a panic (a profile's data folder may hold anything).
func FuzzDecodeManifest(f *testing.F) {
	f.Add([]byte(`{"chain": "solana", "complete": true}`))
	f.Add([]byte(`{"chain": 1}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeManifest(b)
		if (m == nil) == (err == nil) {
			t.Fatalf("manifest %v and error %v: want exactly one", m, err)
		}
	})
}
