package profiles

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/schema"
)

// TestResolvedMatchesSchema: the resolved profile a snapshot carries is what
// schema/snapshot.v1.json says, field for field (a stage's shape is checked in engine), and
// each bundled profile's is valid against it, TLS and target-file requests included.
func TestResolvedMatchesSchema(t *testing.T) {
	schema.RequireType(t, schema.Snapshot, "/$defs/resolvedProfile", reflect.TypeOf(Resolved{}),
		map[reflect.Type]reflect.Type{reflect.TypeOf(engine.Stage{}): nil})
	schemas := schema.MustCompile(t)
	for _, name := range BundledNames() {
		p, err := LoadBundled(name, nil, DataDir(mixData))
		if err != nil {
			t.Fatal(err)
		}
		p.Config.TLS = engine.TLSConfig{Insecure: true}
		p.Config.Requests[0].Method, p.Config.Requests[0].Path = "POST", "/v1?key=x"
		b, err := json.Marshal(p.Redacted())
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.ValidateAt(schema.Snapshot, "/$defs/resolvedProfile", b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
