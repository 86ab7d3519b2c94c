package engine

import "bytes"

// plainMemo is the head (status line, fields and the blank line) of the last answer readPlain
// accepted, and what it read there. readPlain's answer is a function of the head, the body's
// length and the two limits alone, so an answer whose head is that one's byte for byte, with
// a body of the length it gives, reads the same without a pass over its fields. A node
// answers every request of a run with the same head but for its Date, which changes once a
// second: the pass was 2.5 % of the closed loop's CPU (bench/README, "Remembering the last
// answer"), the comparison one memcmp. An event loop keeps one for all its connections.
type plainMemo struct {
	valid               bool
	head                []byte
	maxHeader, maxBody  int
	fieldsAt, fieldsEnd int // the fields' block in head
	status, length      int
	bytesIn             uint32
	close, limits       bool
	hits                int // answers read from the memo (a test reads it)
	relearn
}

var crlf = []byte("\r\n")

// maxMemoHead bounds the heads a plainMemo keeps: a longer one is no common answer's.
const maxMemoHead = 1024

// read is readPlain(b, maxHeader, maxBody), from the memo when b's head is the last one's.
func (m *plainMemo) read(b []byte, maxHeader, maxBody int) (plainAnswer, bool) {
	h := len(m.head)
	if m.valid && len(b) == h+m.length && maxHeader == m.maxHeader && maxBody == m.maxBody && bytes.Equal(b[:h], m.head) {
		m.hits++
		m.hit()
		return plainAnswer{status: m.status, body: b[h:], bytesIn: m.bytesIn, close: m.close,
			fields: b[m.fieldsAt:m.fieldsEnd], limits: m.limits}, true
	}
	a, ok := readPlain(b, maxHeader, maxBody)
	if !ok || len(b)-len(a.body) > maxMemoHead || !m.keep() {
		return a, ok
	}
	h = len(b) - len(a.body)
	m.valid, m.head = true, append(m.head[:0], b[:h]...)
	m.maxHeader, m.maxBody = maxHeader, maxBody
	// The fields follow the status line (which holds no CR) and end at the blank line.
	m.fieldsAt, m.fieldsEnd = bytes.Index(b, crlf)+2, h-2
	m.status, m.length, m.bytesIn, m.close, m.limits = a.status, len(a.body), a.bytesIn, a.close, a.limits
	return a, ok
}
