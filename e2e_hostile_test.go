package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestHostileEarly413: a node that answers 413 before reading a body over its limit and
// closes, as geth does for a body over 5 MiB, is reported with status 413 for every request,
// as curl and hey report it, not as reset.
func TestHostileEarly413(t *testing.T) {
	t.Parallel()
	srv := hostile.Start(t, hostile.Config{Mode: hostile.Early413, Limit: 5 << 20, Body: []byte("request body too large")})
	p := writeProfile(t, srv.URL, 2, `[[request]]
method = "eth_call"
params = ["{{payload 6000000}}"]
[[stage]]
rate = "10/s"
duration = "1s"
`)
	r := runCLI(t, nil, p, "--timeout", "5s")
	mustRun(t, r, exitOK)
	tot := r.snap.Totals
	t.Logf("status %v errors %v", tot.Status, tot.Errors)
	if tot.Completed != 10 || tot.Status["413"] != 10 || len(tot.Errors) != 0 || tot.Failed != 10 {
		t.Errorf("completed %d, status %v, errors %v: want 10 × 413 and no transport error", tot.Completed, tot.Status, tot.Errors)
	}
	if !strings.Contains(r.stdout, "413") || strings.Contains(r.stdout, "reset") {
		t.Errorf("the report should show 413 and no reset:\n%s", r.stdout)
	}
}

// TestHostileCallFaults: answers that lose, add, mislabel or are not JSON-RPC calls fail
// their requests and are counted per call by kind; the well-behaved node gives all ok.
func TestHostileCallFaults(t *testing.T) {
	t.Parallel()
	const batch3 = "[[request]]\nmethod = \"getSlot\"\nbatch = 3\n"
	const single = "[[request]]\nmethod = \"getSlot\"\n"
	tests := []struct {
		name          string
		mode          hostile.Mode
		request       string
		okReqs        int64 // of 20 requests
		callsOK       int64 // of 20 × calls
		fault         string
		faults        int64
		calls         int64 // per request
		reportMention string
	}{
		// The baseline: every call answered.
		{"echo", hostile.Echo, batch3, 20, 60, "", 0, 3, ""},
		// The last item of every batch dropped: one call missing per request.
		{"dropped item", hostile.DropBatchItem, batch3, 0, 40, "missing", 20, 3, "missing"},
		// Items without ids: no call can be matched; each item is of unknown id.
		{"no ids", hostile.NoID, batch3, 0, 0, "unknown id", 60, 3, "unknown id"},
		// Every id shifted by 1000.
		{"wrong ids", hostile.WrongIDs, batch3, 0, 0, "unknown id", 60, 3, "unknown id"},
		// An extra item of an id no call has: the calls are fine, the request is not.
		{"extra item", hostile.ExtraBatchItem, batch3, 0, 60, "unknown id", 20, 3, "unknown id"},
		// Another request's id on a single call.
		{"foreign id", hostile.ForeignID, single, 0, 0, "foreign id", 20, 1, "foreign id"},
		// {"foo":1}: valid JSON, not JSON-RPC.
		{"not json-rpc", hostile.NotJSONRPC, single, 0, 0, "not JSON-RPC", 20, 1, "not JSON-RPC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := hostile.Start(t, hostile.Config{Mode: tt.mode})
			p := writeProfile(t, srv.URL, 4, tt.request+stage("20/s", "1s"))
			r := runCLI(t, nil, p)
			mustRun(t, r, exitOK)
			tot := r.snap.Totals
			t.Logf("ok %d failed %d calls %+v", tot.OK, tot.Failed, tot.Calls)
			if tot.Completed != 20 || tot.OK != tt.okReqs || tot.Failed != 20-tt.okReqs {
				t.Errorf("requests: completed %d ok %d failed %d, want 20, %d ok", tot.Completed, tot.OK, tot.Failed, tt.okReqs)
			}
			c := tot.Calls
			if c.Sent != 20*tt.calls || c.OK != tt.callsOK || c.Failed != 20*tt.calls-tt.callsOK || c.Limited != 0 {
				t.Errorf("calls %+v, want %d sent, %d ok, the rest failed", c, 20*tt.calls, tt.callsOK)
			}
			if tt.fault != "" && c.Faults[tt.fault] != tt.faults || tt.fault == "" && len(c.Faults) > 0 {
				t.Errorf("faults %v, want %d %q", c.Faults, tt.faults, tt.fault)
			}
			if byReq := tot.ByRequest; len(byReq) != 1 {
				t.Errorf("by_request %v", byReq)
			} else {
				for name, s := range byReq {
					if s.Calls.Sent != c.Sent || s.Calls.OK != c.OK || s.Calls.Failed != c.Failed {
						t.Errorf("by_request %s calls %+v, totals %+v", name, s.Calls, c)
					}
				}
			}
			if tt.reportMention != "" && !strings.Contains(r.stdout, tt.reportMention) {
				t.Errorf("the report does not name %q:\n%s", tt.reportMention, r.stdout)
			}
		})
	}
}

// TestBatchGoodCallsCounted: a batch of a good call and a failing one is one failed request,
// and its good call is counted too: 1 call ok and 1 failed per request, per request name as
// well. Read from the snapshot's JSON, as scripts read it.
func TestBatchGoodCallsCounted(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	p := writeProfile(t, url, 4, `[[request]]
batch = [{method = "getSlot"}, {method = "noSuchMethod"}]
[[stage]]
rate = "20/s"
duration = "1s"
`)
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	raw, err := json.Marshal(r.snap)
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Totals struct {
			Completed, Failed int64
			RPCErrors         map[string]int64 `json:"rpc_errors"`
			Calls             map[string]any   `json:"calls"`
			ByRequest         map[string]struct {
				Calls map[string]any `json:"calls"`
			} `json:"by_request"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	tot := snap.Totals
	t.Logf("completed %d failed %d rpc errors %v calls %v", tot.Completed, tot.Failed, tot.RPCErrors, tot.Calls)
	if tot.Completed != 20 || tot.Failed != 20 || tot.RPCErrors["-32601"] != 20 {
		t.Errorf("requests: completed %d failed %d rpc errors %v, want 20 failed with -32601", tot.Completed, tot.Failed, tot.RPCErrors)
	}
	want := map[string]any{"sent": 40.0, "ok": 20.0, "limited": 0.0, "failed": 20.0}
	for k, v := range want {
		if tot.Calls[k] != v {
			t.Errorf("calls.%s = %v, want %v (calls %v)", k, tot.Calls[k], v, tot.Calls)
		}
		if got := tot.ByRequest["getSlot+noSuchMethod x2"].Calls[k]; got != v {
			t.Errorf("by_request calls.%s = %v, want %v", k, got, v)
		}
	}
	if !strings.Contains(r.stdout, "calls") {
		t.Errorf("the report does not show the calls:\n%s", r.stdout)
	}
}
