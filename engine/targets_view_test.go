package engine_test

import (
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/rpcstress/rpcstress/engine"
)

// TestTargetViewRoundTrip: TargetView and TargetRunOf name a target's sections one by one, so
// a section added to TargetRun and Snapshot but left out of either would be dropped from every
// report, comparison and merge of a run side by side, silently. Every section, filled at
// random, survives the way there and back.
func TestTargetViewRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewSource(17))
	for range 50 {
		v, ok := quick.Value(reflect.TypeFor[engine.TargetRun](), rnd)
		if !ok {
			t.Fatal("quick cannot fill a TargetRun")
		}
		want := v.Interface().(engine.TargetRun)
		s := &engine.Snapshot{Targets: []engine.TargetRun{want, {Name: "other"}}}
		got := reflect.ValueOf(engine.TargetRunOf(want.Name, s.TargetView(0)))
		for i := range got.NumField() {
			if !reflect.DeepEqual(got.Field(i).Interface(), v.Field(i).Interface()) {
				t.Fatalf("TargetRun.%s was lost on the way through TargetView and TargetRunOf", got.Type().Field(i).Name)
			}
		}
	}
}
