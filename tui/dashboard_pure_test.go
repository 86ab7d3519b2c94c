package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// checkViewPure fails when View changes the model it draws: a fingerprint of everything the
// model holds is the same before and after, and a second View draws the same as the first.
// Bubble Tea asks for a view after every message, and a test or a resize may ask again: a
// View that laid panes out or filled a cache would make what is drawn depend on how often.
// The panes' views, when given, are held to the same: they only read what Update set.
func checkViewPure(t *testing.T, where string, m tea.Model, paneViews ...func() string) {
	t.Helper()
	before := fingerprint(m)
	first := m.View()
	for _, view := range paneViews {
		view()
	}
	if after := fingerprint(m); after != before {
		t.Errorf("%s: View or a pane's view changed the model: %s", where, firstDifference(before, after))
	}
	if second := m.View(); fingerprint(second) != fingerprint(first) {
		t.Errorf("%s: a second View drew otherwise:\n%s\nthen\n%s", where, first.Content, second.Content)
	}
}

// paneViews are the views of all the dashboard's panes.
func paneViews(d *Dashboard) []func() string {
	return []func() string{d.header.View, d.footer.View, d.throughput.View, d.latency.View, d.status.View,
		d.errors.View, d.events.View, d.stages.View, d.requests.View, d.node.View, d.targets.View, d.answers.View,
		d.subs.View}
}

// fingerprint writes out everything reachable from v: every field, exported or not, every
// element, and what every pointer, interface and map holds; each pointer is followed once (the
// panes share the dashboard's styles, and some point back into it) and named by its address,
// so a pointer set to something else is a change too.
func fingerprint(v any) string { return fingerprintValue(reflect.ValueOf(v)) }

func fingerprintValue(v reflect.Value) string {
	f := fingerprinter{seen: map[seenPointer]bool{}}
	f.walk(v)
	return f.b.String()
}

type seenPointer struct {
	addr uintptr
	typ  reflect.Type
}

type fingerprinter struct {
	b    strings.Builder
	seen map[seenPointer]bool
}

func (f *fingerprinter) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		f.b.WriteString("invalid ")
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			f.b.WriteString("nil ")
			return
		}
		if v.Kind() == reflect.Pointer {
			f.b.WriteString("&" + strconv.FormatUint(uint64(v.Pointer()), 16) + " ")
			k := seenPointer{v.Pointer(), v.Type()}
			if f.seen[k] {
				return
			}
			f.seen[k] = true
		}
		f.walk(v.Elem())
	case reflect.Struct:
		f.b.WriteString("{")
		for i := range v.NumField() {
			f.walk(v.Field(i))
		}
		f.b.WriteString("} ")
	case reflect.Slice, reflect.Array:
		f.b.WriteString("[" + strconv.Itoa(v.Len()) + "/" + strconv.Itoa(v.Cap()) + " ")
		for i := range v.Len() {
			f.walk(v.Index(i))
		}
		f.b.WriteString("] ")
	case reflect.Map:
		// In the order of the keys (map order is random), so that the pointers they lead to
		// are followed in the same order every time.
		keys := v.MapKeys()
		names := make(map[reflect.Value]string, len(keys))
		for _, k := range keys {
			names[k] = fingerprintValue(k)
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(names[a], names[b]) })
		f.b.WriteString("map[")
		for _, k := range keys {
			f.b.WriteString(names[k] + ": ")
			f.walk(v.MapIndex(k))
		}
		f.b.WriteString("] ")
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		fmt.Fprintf(&f.b, "%s@%x ", v.Kind(), v.Pointer())
	case reflect.String:
		f.b.WriteString(strconv.Itoa(v.Len()) + ":" + v.String() + " ") // its length, then as is
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.b.WriteString(strconv.FormatInt(v.Int(), 10) + " ")
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.b.WriteString(strconv.FormatUint(v.Uint(), 10) + " ")
	default: // bool, float, complex
		fmt.Fprintf(&f.b, "%v ", v)
	}
}

// firstDifference shows where two fingerprints part, with some of what comes before.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-120, 0)
	return fmt.Sprintf("at byte %d, …%s⟨ %.80s ⟩ became ⟨ %.80s ⟩", i, a[from:i], a[i:], b[i:])
}

// TestFingerprintSeesChanges: the fingerprint changes with anything the model holds, however
// deep, and only then (checkViewPure is only as good as it).
func TestFingerprintSeesChanges(t *testing.T) {
	d, _ := testDashboard(t, nil)
	tests := []struct {
		name   string
		change func(*Dashboard)
	}{
		// A pane's size, as a View that laid panes out would set it.
		{"pane size", func(d *Dashboard) { d.events.height++ }},
		// The box cache, as a View that filled it would.
		{"box cache", func(d *Dashboard) { d.boxCache[boxEvents] = cachedBox{content: "x"} }},
		// The header's progress bar, a bubbles model held by value.
		{"bar width", func(d *Dashboard) { d.header.bar.SetWidth(d.header.bar.Width() + 1) }},
		// The run state a pane reads through the shared pointer.
		{"shared state", func(d *Dashboard) { d.c.state = "elsewhere" }},
		// A pointer set to an equal copy is a change.
		{"pointer", func(d *Dashboard) { st := *d.c.st; d.c.st = &st }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fingerprint(d)
			if again := fingerprint(d); again != before {
				t.Fatalf("two fingerprints of the same model differ: %s", firstDifference(before, again))
			}
			tt.change(d)
			if fingerprint(d) == before {
				t.Error("the fingerprint did not change")
			}
		})
	}
}
