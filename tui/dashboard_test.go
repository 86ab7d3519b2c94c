package tui

import (
	"errors"
	"github.com/charmbracelet/x/ansi"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// testDashboard is a dashboard over fixed stats with a recording controller and a save that
// always writes runs/saved.json.
func testDashboard(t *testing.T, edit func(*engine.Stats)) (*Dashboard, *fakeController) {
	t.Helper()
	st := testStats()
	if edit != nil {
		edit(st)
	}
	ctl := &fakeController{}
	d := NewDashboard(DashboardOptions{
		Stats:   func() *engine.Stats { return st },
		Control: ctl,
		Save:    func() (string, error) { return "runs/saved.json", nil },
	})
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return d, ctl
}

// keyPress makes the message a terminal sends for a key, named as bubbles/key names it.
func keyPress(name string) tea.KeyPressMsg {
	switch name {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// press sends keys to the dashboard; a name longer than one rune that is not a key name is
// typed rune by rune. It returns the command of the last key.
func press(d *Dashboard, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		switch k {
		case "up", "down", "left", "right", "space", "enter", "esc", "ctrl+c":
			_, cmd = d.Update(keyPress(k))
		default:
			for _, r := range k {
				_, cmd = d.Update(keyPress(string(r)))
			}
		}
	}
	return cmd
}

func view(d *Dashboard) string { return ansi.Strip(d.View().Content) }

func TestDashboardKeysCallControl(t *testing.T) {
	at1000 := func(st *engine.Stats) { st.Plan.TargetRate = 1000 }
	tests := []struct {
		name string
		edit func(*engine.Stats)
		keys []string
		want []string
	}{
		// ↑ and k raise the target by 10% of what runs now.
		{"up raises 10%", at1000, []string{"up"}, []string{"SetRate(1100/s)"}},
		{"k raises 10%", at1000, []string{"k"}, []string{"SetRate(1100/s)"}},
		// ↓ and j lower it by 10%.
		{"down lowers 10%", at1000, []string{"down"}, []string{"SetRate(900/s)"}},
		{"j lowers 10%", at1000, []string{"j"}, []string{"SetRate(900/s)"}},
		// Two presses before the engine publishes again build on each other: +21%, not +10% twice.
		{"up twice compounds", at1000, []string{"up", "up"}, []string{"SetRate(1100/s)", "SetRate(1210/s)"}},
		// From a zero-rate stage, a raise starts at 1/s: 10% of nothing never moves.
		{"up from zero", func(st *engine.Stats) { st.Plan.TargetRate = 0 }, []string{"up"}, []string{"SetRate(1/s)"}},
		// = takes an exact rate in any form ParseRate reads.
		{"= per second", at1000, []string{"=", "500/s", "enter"}, []string{"SetRate(500/s)"}},
		{"= per minute", at1000, []string{"=", "240/m", "enter"}, []string{"SetRate(4/s)"}},
		// A bad rate is refused and the input stays open; esc leaves it without a call.
		{"= bad rate", at1000, []string{"=", "abc", "enter", "esc"}, nil},
		// q typed into the rate input is a letter, not quit.
		{"q in the input", at1000, []string{"=", "q", "esc"}, nil},
		{"right is next stage", nil, []string{"right"}, []string{"NextStage()"}},
		{"n is next stage", nil, []string{"n"}, []string{"NextStage()"}},
		{"left is previous stage", nil, []string{"left"}, []string{"PrevStage()"}},
		{"b is previous stage", nil, []string{"b"}, []string{"PrevStage()"}},
		// space toggles by the run's state, and the second press knows about the first.
		{"space pauses", nil, []string{"space"}, []string{"Pause()"}},
		{"space twice resumes", nil, []string{"space", "space"}, []string{"Pause()", "Resume()"}},
		{"space on a paused run", func(st *engine.Stats) { st.Plan.State = engine.StatePaused }, []string{"space"}, []string{"Resume()"}},
		{"h holds", nil, []string{"h"}, []string{"Hold(true)"}},
		{"h on a held stage releases", func(st *engine.Stats) { st.Plan.State = engine.StateHeld }, []string{"h"}, []string{"Hold(false)"}},
		{"q stops", nil, []string{"q"}, []string{"Stop(quit)"}},
		{"ctrl+c stops", nil, []string{"ctrl+c"}, []string{"Stop(quit)"}},
		{"ctrl+c in the input stops", nil, []string{"=", "ctrl+c"}, []string{"Stop(quit)"}},
		// Once stopping, there is nothing left to steer.
		{"keys after q do nothing", at1000, []string{"q", "up", "n", "space", "h"}, []string{"Stop(quit)"}},
		// A closed-loop run has no rate: the rate keys are off.
		{"closed loop has no rate keys", func(st *engine.Stats) { st.Mode = engine.ModeClosed }, []string{"up", "down", "=", "5", "enter"}, nil},
		// View keys do not touch the run.
		{"help and bars", nil, []string{"?", "l", "?", "l"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ctl := testDashboard(t, tt.edit)
			press(d, tt.keys...)
			if !reflect.DeepEqual(ctl.calls, tt.want) {
				t.Errorf("keys %q: calls %q, want %q", tt.keys, ctl.calls, tt.want)
			}
		})
	}
}

func TestDashboardRateInput(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	press(d, "=")
	if !strings.Contains(view(d), "rate: ") {
		t.Fatalf("= shows no rate input:\n%s", view(d))
	}
	press(d, "abc", "enter")
	if v := view(d); !strings.Contains(v, `rate "abc"`) || !strings.Contains(v, "not a number") {
		t.Errorf("a bad rate shows no message:\n%s", v)
	}
	if len(ctl.calls) != 0 {
		t.Errorf("a bad rate made calls: %q", ctl.calls)
	}
	// A good rate closes the input and says what changed.
	d.input.SetValue("")
	press(d, "250/s", "enter")
	v := view(d)
	if strings.Contains(v, "not a number") || strings.Contains(v, "rate: 250") {
		t.Errorf("after a good rate the input or the old error is still shown:\n%s", v)
	}
	if !strings.Contains(v, "target 250/s (was 200/s)") {
		t.Errorf("the new rate is not confirmed:\n%s", v)
	}
	if want := []string{"SetRate(250/s)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q", ctl.calls, want)
	}
	// esc cancels without a call.
	press(d, "=", "9", "esc")
	if strings.Contains(view(d), "rate: 9") || len(ctl.calls) != 1 {
		t.Errorf("esc did not cancel: calls %q\n%s", ctl.calls, view(d))
	}
}

func TestDashboardSave(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	cmd := press(d, "s")
	if cmd == nil {
		t.Fatal("s returned no command: the save must run off the event loop")
	}
	if len(ctl.calls) != 0 {
		t.Fatalf("the save was recorded before it happened: %q", ctl.calls)
	}
	d.Update(cmd())
	if want := []string{"Mark(save, runs/saved.json)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q", ctl.calls, want)
	}
	if !strings.Contains(view(d), "saved: runs/saved.json") {
		t.Errorf("the path is not shown:\n%s", view(d))
	}
}

func TestDashboardSaveFails(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	d.opts.Save = func() (string, error) { return "", errors.New("open runs/x.json: permission denied") }
	cmd := press(d, "s")
	d.Update(cmd())
	if len(ctl.calls) != 0 {
		t.Errorf("a failed save was recorded: %q", ctl.calls)
	}
	if !strings.Contains(view(d), "save failed: open runs/x.json: permission denied") {
		t.Errorf("the error is not shown:\n%s", view(d))
	}
}

// isQuit reports whether cmd is tea.Quit.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// TestDashboardQuitFlow: q stops the run and says what the drain waits for and what a second
// key does; when the run is saved, the dashboard leaves by itself (one key to quit: main then
// prints the report on the normal screen).
func TestDashboardQuitFlow(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	if cmd := press(d, "q"); isQuit(cmd) {
		t.Fatal("the first q quit before the run drained")
	}
	if v := view(d); !strings.Contains(v, "DRAINING") || !strings.Contains(v, "q/ctrl+c again: leave now") {
		t.Errorf("no draining state after q, or no word on what a second q does:\n%s", v)
	}
	_, cmd := d.Update(runDone("runs/getBalance.json"))
	if !isQuit(cmd) {
		t.Error("the dashboard waits for a second key after q: quitting takes one")
	}
	if want := []string{"Stop(quit)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q", ctl.calls, want)
	}
}

// TestDashboardRunEndsByItself: a run that ends by itself keeps its final dashboard until a
// key, as before; the frame clock stops.
func TestDashboardRunEndsByItself(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	_, cmd := d.Update(runDone("runs/getBalance.json"))
	if cmd != nil {
		t.Error("the dashboard quit at the end without ExitOnEnd")
	}
	v := view(d)
	for _, want := range []string{"DONE", "Run finished", "rpcstress getBalance: 2490 sent", "snapshot: runs/getBalance.json", "press any key"} {
		if !strings.Contains(v, want) {
			t.Errorf("final view lacks %q:\n%s", want, v)
		}
	}
	if _, cmd := d.Update(tickMsg{}); cmd != nil {
		t.Error("the frame clock still runs after the end")
	}
	if !isQuit(press(d, "x")) {
		t.Error("a key after the end does not quit")
	}
	if len(ctl.calls) != 0 {
		t.Errorf("calls %q after a run that ended by itself", ctl.calls)
	}
}

// TestDashboardSecondQuitLeavesAtOnce: a second q or ctrl+c while draining stops the run again
// (the engine then leaves its drain at once) and leaves.
func TestDashboardSecondQuitLeavesAtOnce(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	press(d, "q")
	if !isQuit(press(d, "q")) {
		t.Error("a second quit while draining does not leave")
	}
	if want := []string{"Stop(quit)", "Stop(quit)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q: the second stop is what ends the engine's drain", ctl.calls, want)
	}
}

// TestDashboardCtrlCIsInterrupt: ctrl+c goes to Interrupt (main stops the run as on SIGINT:
// exit 130), not to Stop("quit"); a second one leaves too.
func TestDashboardCtrlCIsInterrupt(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	interrupts := 0
	d.opts.Interrupt = func() { interrupts++ }
	if isQuit(press(d, "ctrl+c")) || interrupts != 1 || len(ctl.calls) != 0 {
		t.Fatalf("first ctrl+c: %d interrupts, calls %q; want one interrupt, no quit yet", interrupts, ctl.calls)
	}
	// The second key hurries the stop already made: a plain stop, which ends the drain.
	if !isQuit(press(d, "ctrl+c")) || interrupts != 1 {
		t.Errorf("second ctrl+c: %d interrupts; want still one, and a quit", interrupts)
	}
	if want := []string{"Stop(quit)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q", ctl.calls, want)
	}
	// q first, then ctrl+c: the run was stopped by q, not interrupted.
	d, ctl = testDashboard(t, nil)
	d.opts.Interrupt = func() { interrupts++ }
	press(d, "q", "ctrl+c")
	if want := []string{"Stop(quit)", "Stop(quit)"}; interrupts != 1 || !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("q then ctrl+c: %d interrupts, calls %q; want no new interrupt, calls %q", interrupts-1, ctl.calls, want)
	}
}

// TestDashboardDrainLine: while the engine drains (here the plan ran out by itself), the footer
// says how many answers it waits for, how long at most, and that a key leaves now.
func TestDashboardDrainLine(t *testing.T) {
	d, _ := testDashboard(t, func(st *engine.Stats) {
		st.Plan.State, st.Plan.DrainLeft, st.Total.Inflight = engine.StateDraining, 58*time.Second, 60
	})
	if v := view(d); !strings.Contains(v, "draining 60 in flight (up to 58s) — q/ctrl+c: leave now") {
		t.Errorf("no drain line:\n%s", v)
	}
}

// TestDashboardInputClosed: when the terminal's input ends (the terminal is gone without a
// SIGHUP), nobody can press a key or watch: mid-run the dashboard stops the run (as an SSH
// drop would) and leaves once it is saved; on the final summary it leaves at once.
func TestDashboardInputClosed(t *testing.T) {
	d, ctl := testDashboard(t, nil)
	if _, cmd := d.Update(InputClosedMsg{}); isQuit(cmd) {
		t.Error("the dashboard left before the run was saved")
	}
	if want := []string{"Stop(terminal closed)"}; !reflect.DeepEqual(ctl.calls, want) {
		t.Errorf("calls %q, want %q: nobody can stop this run any more but us", ctl.calls, want)
	}
	if _, cmd := d.Update(runDone("runs/x.json")); !isQuit(cmd) {
		t.Error("after the input closed, the end of the run waits for a key nobody can press")
	}
	d, ctl = testDashboard(t, nil)
	d.Update(runDone("runs/x.json"))
	if _, cmd := d.Update(InputClosedMsg{}); !isQuit(cmd) {
		t.Error("the final summary waits for a key after the input closed")
	}
	if len(ctl.calls) != 0 {
		t.Errorf("calls %q after the run ended", ctl.calls)
	}
}

func TestDashboardExitOnEnd(t *testing.T) {
	d, _ := testDashboard(t, nil)
	d.opts.ExitOnEnd = true
	if _, cmd := d.Update(RunDoneMsg{Path: "runs/x.json"}); !isQuit(cmd) {
		t.Error("ExitOnEnd did not quit at the end")
	}
}

func TestDashboardRunDoneWithError(t *testing.T) {
	d, _ := testDashboard(t, nil)
	d.Update(RunDoneMsg{Err: errors.New("write runs/x.json: no space left on device")})
	if v := view(d); !strings.Contains(v, "snapshot not saved: write runs/x.json: no space left") {
		t.Errorf("the save error is not shown:\n%s", v)
	}
}

func TestDashboardTickPullsStats(t *testing.T) {
	st := testStats()
	pulls := 0
	d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { pulls++; return st }, Control: &fakeController{}})
	if d.Init() == nil {
		t.Fatal("Init does not start the frame clock")
	}
	first := d.View().Content
	cmd := d.route(tickMsg{}) // Update without its redraw, to see whether the tick asks for one
	if cmd == nil || pulls != 2 {
		t.Fatalf("a tick must pull the stats and re-arm: pulls %d, cmd %v", pulls, cmd != nil)
	}
	// The same stats: nothing to redraw.
	if d.dirty {
		t.Error("the same stats view marked the frame dirty")
	}
	// New stats: the frame is rebuilt.
	next := *st
	next.Plan.TargetRate = 300
	st = &next
	d.Update(tickMsg{})
	if got := d.View().Content; got == first || !strings.Contains(ansi.Strip(got), "target 300/s") {
		t.Errorf("new stats did not reach the view:\n%s", ansi.Strip(got))
	}
}

// TestFrameClock: the frame tick comes FPS times a second, DefaultFPS when none is given, and
// brings its dashboard's message.
func TestFrameClock(t *testing.T) {
	tests := []struct {
		fps  int
		want time.Duration
	}{
		{0, 100 * time.Millisecond},  // none given: DefaultFPS
		{-1, 100 * time.Millisecond}, // nonsense: DefaultFPS too
		{50, 20 * time.Millisecond},  // as asked
	}
	for _, tt := range tests {
		if got := newFrameClock(tt.fps, tickMsg{}).every; got != tt.want {
			t.Errorf("FPS %d: a frame every %v, want %v", tt.fps, got, tt.want)
		}
	}
	if msg := newFrameClock(50, searchTickMsg{}).next()(); msg != (searchTickMsg{}) {
		t.Errorf("the tick brought %#v, want searchTickMsg", msg)
	}
}

func TestDashboardViewOptions(t *testing.T) {
	d, _ := testDashboard(t, nil)
	if v := d.View(); !v.AltScreen || v.WindowTitle != "rpcstress getBalance" {
		t.Errorf("full-screen view: AltScreen %v, title %q", v.AltScreen, v.WindowTitle)
	}
	d.opts.Inline = true
	if d.View().AltScreen {
		t.Error("an inline dashboard asked for the alternate screen")
	}
}

// TestDashboardFinalFrameIsFinal: the run ends between two frames (the drain completes the
// last requests, the engine publishes its final view), and the last frame shows those final
// numbers beside the summary, not the previous frame's (issue 14: status 29,940 beside
// 30,000 completed, inflight 60).
func TestDashboardFinalFrameIsFinal(t *testing.T) {
	live := testStats()
	final := testStats()
	final.Done, final.Plan.State = true, engine.StateDone
	final.Total.Status = map[string]int64{"200": 5893, "429": 1104, "503": 3}
	final.Total.Completed, final.Total.Inflight = 7000, 0
	cur := live
	d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return cur }, Control: &fakeController{}})
	d.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	d.Update(tickMsg{})
	cur = final // published by the engine after the last frame, before the run is reported done
	d.Update(runDone("runs/x.json"))
	v := view(d)
	for _, want := range []string{"5893", "1104", "inflight 0"} {
		if !strings.Contains(v, want) {
			t.Errorf("the last frame lacks the final %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "5890") || strings.Contains(v, "inflight 3") {
		t.Errorf("the last frame still shows the live numbers:\n%s", v)
	}
}
