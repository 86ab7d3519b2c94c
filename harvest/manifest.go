package harvest

import (
	"encoding/json"
	"fmt"
	"time"
)

// Manifest records what a harvest read and wrote. It never holds secrets: the source has no
// userinfo or query, headers are not kept.
type Manifest struct {
	Chain       string          `json:"chain"`
	Source      string          `json:"source"`
	ChainID     string          `json:"chain_id,omitempty"`
	Head        int64           `json:"head"`
	WindowStart int64           `json:"window_start"`
	WindowNote  string          `json:"window_note"`
	From        int64           `json:"from"`
	To          int64           `json:"to"`
	Read        int             `json:"blocks_read"`
	Complete    bool            `json:"complete"`
	Partial     string          `json:"partial,omitempty"`
	Started     time.Time       `json:"started"`
	Finished    time.Time       `json:"finished"`
	Requests    int64           `json:"requests"`
	Skipped     []string        `json:"skipped,omitempty"`
	Files       []ManifestEntry `json:"files"`
}

// ManifestEntry is one written file.
type ManifestEntry struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"`
	About string `json:"about"`
}

// ManifestName is the manifest's file name in the output folder.
const ManifestName = "manifest.json"

// DecodeManifest reads a manifest as write wrote it: the one reader of the format, for the
// profiles that read a harvest's folder (which chain it holds) as for the tests.
func DecodeManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestName, err)
	}
	return &m, nil
}
