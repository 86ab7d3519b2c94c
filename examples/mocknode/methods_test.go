package mocknode

import (
	"testing"
	"time"
)

// TestEveryMethodAnswers: answerTable has an answer for every method the node knows over
// request/response (a method left out would answer "Method not found" while methodName
// still lists it), and none for the subscriptions' (WebSocket only) or an unknown method.
func TestEveryMethodAnswers(t *testing.T) {
	n := mustNode(t, Config{})
	for m := range numMethods + 1 { // one past the table too
		r := req{now: n.epoch.Add(time.Hour)} // no params: a wrong call, never an unknown one
		_, _, code, msg := n.result(nil, m, &r)
		known := m < mOther
		if got := code != errMethodNotFound; got != known {
			t.Errorf("%s (method %d): answered %v (code %d %q), want %v", methodName(m), m, got, code, msg, known)
		}
	}
}
