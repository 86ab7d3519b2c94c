package engine

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/schema"
)

// snapshotWrittenAs are the snapshot's types that encode as another: a stage as stageJSON;
// times and the profile are taken as the schema says (the profile's types live in package
// profiles, which checks them).
var snapshotWrittenAs = map[reflect.Type]reflect.Type{
	reflect.TypeOf(Stage{}):           reflect.TypeOf(stageJSON{}),
	reflect.TypeOf(time.Time{}):       nil,
	reflect.TypeOf(json.RawMessage{}): nil,
}

// TestSnapshotSchemaMatchesTypes: schema/snapshot.v1.json describes the Snapshot type field
// for field. A field added to the Go types without the schema fails here.
func TestSnapshotSchemaMatchesTypes(t *testing.T) {
	problems, err := schema.CheckType(schema.Snapshot, "", reflect.TypeOf(Snapshot{}), snapshotWrittenAs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}
