package engine

// The plainest HTTP/1.1 answers, read without fasthttp. The event loop frames every answer as
// it arrives (http1_frame.go) and then had fasthttp parse it again, copying its headers and
// body into a fasthttp.Response, only for the exchange to walk those headers a third time for
// their size and rate-limit headers. For the answer nearly every JSON-RPC node and proxy sends
// (HTTP/1.1, a status, a Content-Length, a few plain fields) readPlain does all of that in one
// pass over the bytes already received, without copying them.
//
// It gives what fasthttp v1.74.0 gives for such an answer: the status, the body, the size that
// http1Exchange.answer counts and the rate-limit headers it records, and whether the server
// said Connection: close. Anything else it declines (ok false), and fasthttp parses that answer
// as before: interim and bodiless statuses, another version, chunked, compressed, cookies,
// trailers, a field folded over lines, a bare LF, a repeated field fasthttp keeps one of.
// FuzzPlainAnswer holds the two to agreeing on every answer readPlain accepts.

// plainAnswer is an answer readPlain read: its fields point into the bytes it was given.
type plainAnswer struct {
	status  int
	body    []byte
	bytesIn uint32 // as http1Exchange.answer counts it (see there)
	close   bool   // the server said Connection: close
	// fields is the header fields' block, each field ending in CRLF, for recordLimits; limits:
	// a rate-limit header is among them.
	fields []byte
	limits bool
}

// plainLimitKey bounds a rate-limit header's name that readPlain records: a longer one sends
// the answer to fasthttp.
const plainLimitKey = 64

// Which of the fields fasthttp treats apart readPlain has seen (each may come once).
const (
	seenLength = 1 << iota
	seenType
	seenServer
	seenConnection
)

// readPlain reads b, one whole answer as the framer ended it, when it is of the plainest kind
// (see the file's comment); ok false otherwise. maxHeader and maxBody are the framer's limits
// (fasthttp's reader size and ReadLimitBody's): an answer over either is declined.
func readPlain(b []byte, maxHeader, maxBody int) (a plainAnswer, ok bool) {
	// "HTTP/1.1 200 OK\r\n": fasthttp reads the status message as everything after the space
	// that follows the code, and may read none.
	const proto = "HTTP/1.1 "
	if len(b) < len(proto)+5 || string(b[:len(proto)]) != proto {
		return a, false
	}
	p := len(proto)
	code := b[p : p+3]
	for _, c := range code {
		if c < '0' || c > '9' {
			return a, false
		}
	}
	a.status = int(code[0]-'0')*100 + int(code[1]-'0')*10 + int(code[2]-'0')
	// 1xx are interim (the framer skips them), 204 and 304 have no body whatever they say.
	if a.status < 200 || a.status > 599 || a.status == 204 || a.status == 304 {
		return a, false
	}
	p += 3
	msg := 0
	if b[p] == ' ' {
		p++
		for ; p < len(b) && b[p] >= ' ' && b[p] < 0x7f; p++ {
			msg++
		}
	}
	if !crlfAt(b, p) {
		return a, false
	}
	p += 2
	size := len("HTTP/1.1") + 1 + 3 + 1 + msg + 2 + 2 // the status line and the blank line
	fieldsAt := p
	seen, length, typeSize := 0, -1, 0
	for !crlfAt(b, p) {
		key, value, next, fok := plainField(b, p)
		if !fok {
			return a, false
		}
		p = next
		fieldSize := len(key) + 2 + len(value) + 2
		bit := 0
		switch plainKind(key) {
		case plainLength:
			// fasthttp's number (parseLength), of few enough digits that no overflow is near.
			if length, fok = parseLength(value, len(value) <= 15); !fok {
				return a, false
			}
			bit = seenLength
		case plainType:
			bit, typeSize = seenType, fieldSize
			fieldSize = 0 // counted below: fasthttp reports its default for an empty one
		case plainServer:
			bit = seenServer
			if len(value) == 0 {
				fieldSize = 0 // fasthttp does not report an empty one
			}
		case plainConnection:
			a.close = string(value) == "close"
			bit = seenConnection
		case plainRefused:
			return a, false
		case plainLimit:
			if len(key) > plainLimitKey {
				return a, false
			}
			a.limits = true
		}
		if seen&bit != 0 {
			return a, false // fasthttp keeps one of them (or fails): leave it to say which
		}
		seen |= bit
		size += fieldSize
	}
	a.fields = b[fieldsAt:p]
	p += 2
	if length < 0 || p > maxHeader || maxBody > 0 && length > maxBody || len(b)-p != length {
		return a, false
	}
	if typeSize <= len("Content-Type")+2+2 { // none, or an empty one: fasthttp reports its default
		typeSize = len("Content-Type") + 2 + len(plainDefaultType) + 2
	}
	size += typeSize
	a.body = b[p:]
	a.bytesIn = clampU32(size + length)
	return a, true
}

// plainDefaultType is the Content-Type fasthttp reports for an answer without one.
const plainDefaultType = "text/plain; charset=utf-8"

// crlfAt reports a CRLF at b[p:].
func crlfAt(b []byte, p int) bool { return p+1 < len(b) && b[p] == '\r' && b[p+1] == '\n' }

// plainField reads the header field at b[p:], "Key: value\r\n", as fasthttp would (the value
// without the blanks around it), and where the next one starts; ok false for a field readPlain
// leaves to fasthttp: a key of other than token bytes or a blank before its colon, a byte
// fasthttp refuses in the value, a line not ended by CRLF, or one folded onto the next.
func plainField(b []byte, p int) (key, value []byte, next int, ok bool) {
	k := p
	for k < len(b) && plainBytes[b[k]]&byteToken != 0 {
		k++
	}
	if k == p || k == len(b) || b[k] != ':' {
		return nil, nil, 0, false
	}
	key = b[p:k]
	v := k + 1
	for v < len(b) && (b[v] == ' ' || b[v] == '\t') {
		v++
	}
	e := v
	for e < len(b) && plainBytes[b[e]]&byteValue != 0 {
		e++
	}
	// The value ends at its CR, or at a byte fasthttp's parse must judge (LF, NUL, DEL …).
	if !crlfAt(b, e) || e+2 < len(b) && (b[e+2] == ' ' || b[e+2] == '\t') {
		return nil, nil, 0, false
	}
	return key, trimBlanksRight(b[v:e]), e + 2, true
}

// What a byte may be in a field (plainBytes).
const (
	byteToken = 1 << iota // in a key: RFC 9110's tchar (isTokenByte)
	byteValue             // in a value (validFieldValue): not CR, LF or another control byte
)

// plainBytes classes every byte for plainField.
var plainBytes = func() (t [256]uint8) {
	for c := range 256 {
		if isTokenByte(byte(c)) {
			t[c] |= byteToken
		}
		if validFieldValue([]byte{byte(c)}) {
			t[c] |= byteValue
		}
	}
	return t
}()

// The fields readPlain tells apart (plainKind).
const (
	plainOther      = iota
	plainLength     // Content-Length
	plainType       // Content-Type
	plainServer     // Server
	plainConnection // Connection
	plainRefused    // Transfer-Encoding, Content-Encoding, Set-Cookie, Trailer: fasthttp's to read
	plainLimit      // a rate-limit header (isRateLimitHeader)
)

// plainKind says which field key is, by fasthttp's matching (foldEqual); its first letter
// picks the comparisons to make.
func plainKind(key []byte) int {
	switch key[0] | 0x20 {
	case 'c': // foldEqual compares lengths first
		switch {
		case foldEqual(key, "content-length"):
			return plainLength
		case foldEqual(key, "content-type"):
			return plainType
		case foldEqual(key, "connection"):
			return plainConnection
		case foldEqual(key, "content-encoding"):
			return plainRefused
		}
	case 's':
		if foldEqual(key, "server") {
			return plainServer
		}
		if foldEqual(key, "set-cookie") {
			return plainRefused
		}
	case 't':
		if foldEqual(key, "transfer-encoding") || foldEqual(key, "trailer") {
			return plainRefused
		}
	case 'r', 'x':
		if isRateLimitHeader(key) {
			return plainLimit
		}
	}
	return plainOther
}

// recordLimits records a's rate-limit headers into b under the names fasthttp gives them
// (Retry-After, X-Ratelimit-Remaining: each word's first letter upper case, the rest lower), as
// http1Exchange.headerBytes does for an answer fasthttp parsed.
func (a *plainAnswer) recordLimits(r *rateLimitHeaders, b *Batch) {
	var name [plainLimitKey]byte
	for f := a.fields; len(f) > 0; {
		key, value, next, ok := plainField(f, 0)
		if !ok { // readPlain read these very fields
			return
		}
		f = f[next:]
		if !isRateLimitHeader(key) {
			continue
		}
		upper := true
		for i, c := range key {
			switch {
			case upper && 'a' <= c && c <= 'z':
				c -= 'a' - 'A'
			case !upper && 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			name[i], upper = c, c == '-'
		}
		r.record(b, name[:len(key)], value)
	}
}
