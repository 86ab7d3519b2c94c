package engine

import "bytes"

// maxMemoBody bounds the answers the Classifier remembers (classMemo): comparing and copying a
// longer one would cost more than the parse it saves.
const maxMemoBody = 2048

// classMemo is the last answer of a single JSON-RPC call that the Classifier judged without
// recording anything (no error member, no fault, no broken rule), and its verdict. The verdict
// is a function of the status, the body and the call alone (its id, its Expect and its cost:
// rules hold no state), so an answer whose bytes are those of the last one, to the same call,
// gets the same verdict without a parse. A node asked the same thing again mostly answers the
// same bytes: every answer of a getBalance run until the balance changes, and every answer of
// bench/target. The parse and the checks of such an answer were 7.7 % of the closed loop's CPU
// (bench/README, "Remembering the last answer"); the comparison costs one memcmp.
type classMemo struct {
	valid  bool
	status int
	calls  *RPCCalls // a Sender's own copy changes per send: key and spec are compared too
	spec   CallSpec
	key    []byte
	body   []byte
	// what Classify set
	outcome                  Outcome
	callsN, callsOK, limited uint16
	costOK                   uint32
	hits                     int // answers recalled (a test reads it)
	relearn
}

// relearn is when a memo that missed keeps the answer it missed: always, after a hit or two
// misses, since a node that answers the same thing again changed a field (a new second's
// Date, a new balance) and answers the new bytes from then on; after that one miss in 32, so
// a node whose every answer differs (a request id in a field, a templated request) costs a
// comparison per answer, not a copy as well.
type relearn struct{ misses int }

const relearnEvery = 32

func (r *relearn) hit() { r.misses = 0 }

// keep counts a miss and says whether to keep its answer.
func (r *relearn) keep() bool {
	r.misses++
	return r.misses <= 2 || r.misses%relearnEvery == 0
}

// memoable reports an answer that a memo may stand for: a 2xx answer to one call with an id.
// A batch's verdict hangs on the order of its items and a notification's on its status alone.
func memoable(status int, body []byte, calls *RPCCalls) bool {
	return calls != nil && status >= 200 && status <= 299 && !calls.Batch && calls.answers() == 1 &&
		calls.notes == 0 && len(body) <= maxMemoBody
}

// classRecords counts what judging answers appended to b: a memo stands only for an answer
// that appended nothing.
func classRecords(b *Batch) int { return len(b.RPCErrors) + len(b.Faults) + len(b.Invalid) }

// recall fills s from the memo when this answer is the one it remembers.
func (m *classMemo) recall(s *Sample, status int, body []byte, calls *RPCCalls) bool {
	if !m.valid || status != m.status || calls != m.calls || calls.spec(0) != m.spec ||
		!bytes.Equal(body, m.body) || !bytes.Equal(calls.key(0), m.key) {
		return false
	}
	s.Outcome, s.Calls, s.CallsOK, s.CallsLimited = m.outcome, m.callsN, m.callsOK, m.limited
	s.RPCErrN, s.CallsInvalid, s.CostOK = 0, 0, m.costOK
	m.hits++
	m.hit()
	return true
}

// remember keeps s's verdict of this answer; recorded tells that judging it appended a record
// to the batch (an error, a fault, a broken rule), which a recall could not repeat.
func (m *classMemo) remember(s *Sample, status int, body []byte, calls *RPCCalls, recorded bool) {
	if recorded || s.RPCErrN != 0 || s.CallsInvalid != 0 {
		m.valid = false
		return
	}
	if !m.keep() {
		return
	}
	m.valid, m.status, m.calls, m.spec = true, status, calls, calls.spec(0)
	m.key = append(m.key[:0], calls.key(0)...)
	m.body = append(m.body[:0], body...)
	m.outcome, m.callsN, m.callsOK, m.limited, m.costOK = s.Outcome, s.Calls, s.CallsOK, s.CallsLimited, s.CostOK
}
