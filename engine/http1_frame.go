package engine

// Where an HTTP/1.1 answer ends, found as its bytes arrive on a non-blocking socket, so the
// event loop hands fasthttp's Response.ReadLimitBody one whole answer and never a part: a part
// would make fasthttp block for the rest, or report an EOF that did not happen. The framer
// parses only what framing needs, and follows fasthttp v1.74.0 rather than RFC 9112 wherever
// the two differ, because fasthttp does the real parse and the two must agree on every byte.
// References below are to fasthttp's sources (header.go, headerscanner.go, http.go,
// bytesconv.go).

import (
	"bytes"
	"math"
	"math/bits"
)

const (
	// frameMaxInterim is fasthttp's maxInterimResponses (http.go): ReadLimitBody skips at most
	// this many 1xx answers in a row and fails on the next one.
	frameMaxInterim = 100
	// frameMaxHexDigits is fasthttp's maxHexIntChars (bytesconv_64.go, bytesconv_32.go): a
	// chunk size of more hex digits fails.
	frameMaxHexDigits = bits.UintSize/4 - 1
	// frameCRLFCRLF ends a block of header fields for fasthttp's headerScanner (a bare LF LF
	// does not).
	frameCRLFCRLF = "\r\n\r\n"
)

// framePhase is the part of the answer the framer is in.
type framePhase uint8

const (
	phaseStatus    framePhase = iota // before the end of a status line (blank lines skipped)
	phaseFields                      // before the end of the header fields
	phaseLength                      // in a body of known length
	phaseClose                       // in a body that ends when the connection does
	phaseChunkSize                   // in a chunk-size line
	phaseChunkData                   // in a chunk's data and the CRLF after it
	phaseTrailer                     // before the end of the trailer fields
)

// frameVerdict says why an answer ended.
type frameVerdict uint8

const (
	frameOpen     frameVerdict = iota // not ended: more bytes are needed
	frameWhole                        // whole as framed: fasthttp parses it
	frameBad                          // malformed framing: fasthttp's parse fails on it at once
	frameTooLarge                     // a header, trailer or chunk-size line, or the body, is over its limit
	frameCut                          // the connection closed before the answer was whole
)

// chunkLineState is where the framer is in a chunk-size line.
type chunkLineState uint8

const (
	chunkDigits chunkLineState = iota // the hex size
	chunkAfter                        // after the size: blanks, or ';' and an extension
	chunkExt                          // in an extension: anything but CR and LF
	chunkCR                           // after the CR: the LF must follow
)

// answerFrame follows one HTTP/1.1 answer as its bytes arrive (one per connection, reused
// with reset between requests). It never allocates.
//
// Every offset it keeps is into the buffer scan is given, which only grows between calls, so
// each byte is looked at a bounded number of times: the work over a whole answer is linear.
type answerFrame struct {
	head    bool // the request was HEAD: the final answer has no body
	phase   framePhase
	verdict frameVerdict
	end     int // where scan says the answer ends, once verdict is not frameOpen
	spare   int // bytes of buf[:end] after the answer (see unread)
	need    int // the furthest CRLFCRLF fasthttp had to see to read a block so far

	block int // where the current header or trailer block, or chunk-size line, starts
	line  int // phaseStatus: the line being read; phaseFields, phaseTrailer: the fields' start
	pos   int // where the search resumes, or where the body or chunk data starts
	left  int // phaseLength, phaseChunkData: the bytes the body or chunk (with its CRLF) has

	status  int  // the status code, as fasthttp reads it
	http11  bool // the version is exactly HTTP/1.1: fasthttp ignores Transfer-Encoding otherwise
	interim int  // 1xx answers skipped so far
	body    int  // decoded bytes of a chunked body so far

	chunk  chunkLineState
	size   int  // the chunk size read so far
	digits int  // its hex digits
	blank  bool // a blank followed the size: fasthttp then refuses an extension
}

// reset readies f for the answer to a new request; head: that request was HEAD (its answer
// has no body).
func (f *answerFrame) reset(head bool) {
	*f = answerFrame{head: head}
}

// outcome says why the answer ended, or frameOpen while it has not.
func (f *answerFrame) outcome() frameVerdict { return f.verdict }

// unread is how many of the bytes scan said the answer has are not part of it, so fasthttp's
// parse leaves them unread. It is 0 but for one oddity: fasthttp reads a block of fields only
// once it has a CRLFCRLF, but ends the fields at their first empty line, which may be a bare
// LF before it; the answer can then end before that CRLFCRLF, which n still has to reach.
// Bytes after an answer are ones nobody asked for: the connection is not fit to reuse.
func (f *answerFrame) unread() int { return f.spare }

// scan reports, for buf (all the bytes received so far for this answer: the same prefix as at
// the previous call plus what arrived since), whether the answer is whole: n > 0 if it is
// buf[:n] (with any interim 1xx answers before it), 0 if more bytes are needed. Once it has
// said n > 0 it says the same n to every later call until reset.
//
// eof: the connection was closed after buf. A body delimited by the close ends there; any other
// unfinished answer is then as whole as it will ever get: n = len(buf), so that fasthttp's parse
// reports what is missing. With eof and an empty buf there is no answer at all and n is 0: the
// caller knows the connection closed.
//
// maxHeader bounds each block of status line and header fields, and of trailer fields, as the
// size of the bufio.Reader handed to fasthttp does (so the two must be equal; 0 means no
// bound), and also each chunk-size line, which fasthttp leaves unbounded but a buffer must not
// be. maxBody bounds the decoded body as ReadLimitBody's maxBodySize does (0 means no bound).
//
// When a limit is passed or the framing is malformed the answer ends where fasthttp's parse
// stops and reports it (ErrSmallBuffer, ErrBodyTooLarge, a parse error): n is then the end of
// the bytes fasthttp needs for that, at most len(buf), and the same whether buf arrived at
// once or in pieces. outcome tells these ends apart.
func (f *answerFrame) scan(buf []byte, eof bool, maxHeader, maxBody int) (n int) {
	for f.verdict == frameOpen && f.step(buf, maxHeader, maxBody) {
	}
	if f.verdict == frameOpen && eof && len(buf) > 0 {
		if f.phase == phaseClose {
			f.finish(frameWhole, len(buf))
		} else {
			f.finish(frameCut, len(buf))
		}
	}
	if f.verdict == frameOpen {
		return 0
	}
	return f.end
}

// finish ends the answer at end, or at the furthest CRLFCRLF fasthttp needs if that is later
// (see unread): without it fasthttp would report an EOF instead of the answer or its fault.
func (f *answerFrame) finish(v frameVerdict, end int) {
	f.verdict, f.end = v, max(end, f.need)
	f.spare = f.end - end
}

// step moves f on through buf as far as one phase goes: false when it needs more bytes.
func (f *answerFrame) step(buf []byte, maxHeader, maxBody int) bool {
	switch f.phase {
	case phaseStatus:
		return f.stepStatus(buf, maxHeader)
	case phaseFields:
		return f.stepFields(buf, maxHeader, maxBody)
	case phaseLength:
		if len(buf)-f.pos < f.left {
			return false
		}
		f.finish(frameWhole, f.pos+f.left)
		return true
	case phaseClose:
		// fasthttp's readBodyIdentity fails as soon as it holds maxBody+1 bytes.
		if maxBody <= 0 || len(buf)-f.pos <= maxBody {
			return false
		}
		f.finish(frameTooLarge, f.pos+maxBody+1)
		return true
	case phaseChunkSize:
		return f.stepChunkSize(buf, maxHeader, maxBody)
	case phaseChunkData:
		return f.stepChunkData(buf)
	default:
		return f.stepTrailer(buf, maxHeader)
	}
}

// headerWindow returns the end of the bytes fasthttp's reader can hold for a block that
// starts at start, and whether it is full: a block that has not ended by then never will
// (fasthttp: ErrSmallBuffer).
func headerWindow(n, start, maxHeader int) (end int, full bool) {
	if maxHeader > 0 && n-start >= maxHeader {
		return start + maxHeader, true
	}
	return n, false
}

// stepStatus looks for the status line. fasthttp skips empty lines before it, and a line may
// end in LF alone (header.go parseFirstLine, nextLine); it judges the line as soon as it has
// it, before the end of the fields is there, so a bad one ends the answer right away.
func (f *answerFrame) stepStatus(buf []byte, maxHeader int) bool {
	end, full := headerWindow(len(buf), f.block, maxHeader)
	for {
		i := bytes.IndexByte(buf[f.pos:end], '\n')
		if i < 0 {
			f.pos = end
			if full {
				f.finish(frameTooLarge, end)
				return true
			}
			return false
		}
		lineEnd := f.pos + i
		f.pos = lineEnd + 1
		if lineEnd > f.line && buf[lineEnd-1] == '\r' {
			lineEnd--
		}
		if lineEnd == f.line {
			f.line = f.pos // an empty line before the status line
			continue
		}
		status, http11, ok := parseStatusLine(buf[f.line:lineEnd])
		if !ok {
			f.finish(frameBad, f.pos)
			return true
		}
		f.status, f.http11 = status, http11
		f.line = f.pos
		f.phase = phaseFields
		return true
	}
}

// parseStatusLine reads a status line as fasthttp's parseFirstLine does: the version up to
// the first space (HTTP/d.d), spaces, then exactly three digits ended by a space or the line.
func parseStatusLine(b []byte) (status int, http11, ok bool) {
	sp := bytes.IndexByte(b, ' ')
	if sp < 0 {
		return 0, false, false
	}
	proto, code := b[:sp], b[sp+1:]
	for len(code) > 0 && code[0] == ' ' {
		code = code[1:]
	}
	if i := bytes.IndexByte(code, ' '); i >= 0 {
		code = code[:i]
	}
	if len(code) != 3 || !isHTTPVersion(proto) {
		return 0, false, false
	}
	for _, c := range code {
		if c < '0' || c > '9' {
			return 0, false, false
		}
		status = status*10 + int(c-'0')
	}
	return status, string(proto) == "HTTP/1.1", true
}

// isHTTPVersion is fasthttp's: HTTP/ then digit '.' digit.
func isHTTPVersion(p []byte) bool {
	return len(p) == 8 && string(p[:5]) == "HTTP/" && p[6] == '.' &&
		p[5] >= '0' && p[5] <= '9' && p[7] >= '0' && p[7] <= '9'
}

// fieldsEnd finds where fasthttp's headerScanner cuts a block of fields starting at from:
// after a CRLF right there (no fields), else after the first CRLFCRLF (headerscanner.go next).
// It returns -1 while b holds neither; f.pos keeps how far the search got.
func (f *answerFrame) fieldsEnd(b []byte, from int) int {
	if len(b)-from < 2 {
		return -1
	}
	if b[from] == '\r' && b[from+1] == '\n' {
		return from + 2
	}
	start := max(f.pos, from)
	if i := bytes.Index(b[start:], []byte(frameCRLFCRLF)); i >= 0 {
		return start + i + len(frameCRLFCRLF)
	}
	f.pos = max(from, len(b)-len(frameCRLFCRLF)+1)
	return -1
}

// awaitBlock finds the end of the header or trailer block that starts at f.block: blockEnd ≥ 0
// once the block is whole. Before that, stop says whether scan is done with the answer: true
// when the block outgrew its window (the answer ends as too large), false when more bytes are
// needed.
func (f *answerFrame) awaitBlock(buf []byte, maxHeader int) (blockEnd int, stop bool) {
	end, full := headerWindow(len(buf), f.block, maxHeader)
	blockEnd = f.fieldsEnd(buf[:end], f.line)
	if blockEnd < 0 {
		if full {
			f.finish(frameTooLarge, end)
		}
		return -1, full
	}
	f.need = max(f.need, blockEnd)
	return blockEnd, false
}

// stepFields waits for the end of the header fields, then reads what they say. fasthttp checks
// none of them until the whole block is there, so neither does this.
func (f *answerFrame) stepFields(buf []byte, maxHeader, maxBody int) bool {
	blockEnd, stop := f.awaitBlock(buf, maxHeader)
	if blockEnd < 0 {
		return stop
	}
	fi := fieldInfo{end: 2}
	if blockEnd-f.line > 2 {
		fi = scanFields(buf[f.line:blockEnd], f.http11, false)
	}
	if fi.bad {
		f.finish(frameBad, blockEnd)
		return true
	}
	// fasthttp's parse stops at the first empty line, which may end in LF alone and come
	// before the CRLFCRLF it waited for: the rest is the body, or the next answer.
	at := f.line + fi.end
	if f.status >= 100 && f.status < 200 && f.status != 101 {
		return f.skipInterim(at)
	}
	f.startBody(at, fi, maxBody)
	return true
}

// skipInterim moves past a 1xx answer (other than 101): fasthttp reads the next answer's
// header after it, up to frameMaxInterim of them (http.go ReadLimitBody).
func (f *answerFrame) skipInterim(at int) bool {
	f.interim++
	if f.interim > frameMaxInterim {
		f.finish(frameBad, at)
		return true
	}
	f.block, f.line, f.pos = at, at, at
	f.phase = phaseStatus
	return true
}

// startBody reads the final answer's body framing, its header ending at at. fasthttp reads no
// body for HEAD (SkipBody), for 1xx, 204 and 304 whatever they announce (mustSkipContentLength,
// which reads status 0 as 200), chunked ones before Content-Length, and until the close
// without either.
func (f *answerFrame) startBody(at int, fi fieldInfo, maxBody int) {
	switch {
	case f.head || f.status >= 100 && f.status < 200 || f.status == 204 || f.status == 304:
		f.finish(frameWhole, at)
	case fi.chunked:
		f.phase = phaseChunkSize
		f.startChunkLine(at)
	case fi.hasLength && maxBody > 0 && fi.length > maxBody:
		f.finish(frameTooLarge, at) // fasthttp's readBody fails before reading any of it
	case fi.hasLength:
		f.phase = phaseLength
		f.pos, f.left = at, fi.length
	default:
		f.phase = phaseClose
		f.pos = at
	}
}

// startChunkLine readies f for a chunk-size line at at.
func (f *answerFrame) startChunkLine(at int) {
	f.block, f.pos = at, at
	f.chunk, f.size, f.digits, f.blank = chunkDigits, 0, 0, false
}

// stepChunkSize reads a chunk-size line a byte at a time, as fasthttp's parseChunkSize and
// readHexInt do: 1 to frameMaxHexDigits hex digits, then blanks, or ';' and an extension
// (never both), then CRLF; an LF anywhere before that CR is refused. fasthttp fails at the
// first wrong byte, so the answer ends just after it.
func (f *answerFrame) stepChunkSize(buf []byte, maxHeader, maxBody int) bool {
	end, full := headerWindow(len(buf), f.block, maxHeader)
	for ; f.pos < end; f.pos++ {
		ok, done := f.chunkByte(buf[f.pos])
		if !ok {
			f.finish(frameBad, f.pos+1)
			return true
		}
		if done {
			f.pos++
			f.chunkSized(maxBody)
			return true
		}
	}
	if full {
		f.finish(frameTooLarge, end)
		return true
	}
	return false
}

// chunkByte takes one byte of a chunk-size line: ok false if fasthttp refuses it, done true
// when it ends the line.
func (f *answerFrame) chunkByte(c byte) (ok, done bool) {
	switch f.chunk {
	case chunkDigits:
		if d := hexDigit(c); d >= 0 {
			if f.digits == frameMaxHexDigits {
				return false, false
			}
			f.size = f.size<<4 | d
			f.digits++
			return true, false
		}
		if f.digits == 0 {
			return false, false
		}
		f.chunk = chunkAfter
		return f.chunkByte(c)
	case chunkAfter:
		switch c {
		case '\r':
			f.chunk = chunkCR
		case ' ', '\t':
			f.blank = true
		case ';':
			f.chunk = chunkExt
			return !f.blank, false
		default:
			return false, false
		}
		return true, false
	case chunkExt:
		switch c {
		case '\r':
			f.chunk = chunkCR
		case '\n':
			return false, false
		}
		return true, false
	default:
		return c == '\n', c == '\n'
	}
}

// hexDigit returns c's value as a hex digit, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// chunkSized goes on after a whole chunk-size line, f.pos just past it. fasthttp checks the
// body limit against the announced size before reading the data, and not for the last chunk.
func (f *answerFrame) chunkSized(maxBody int) {
	switch {
	case f.size == 0:
		f.phase = phaseTrailer
		f.block, f.line = f.pos, f.pos
	case maxBody > 0 && f.size > maxBody-f.body:
		f.finish(frameTooLarge, f.pos)
	default:
		f.phase = phaseChunkData
		f.left = f.size + 2
	}
}

// stepChunkData waits for a chunk's data and the CRLF fasthttp requires right after it
// (readBodyChunked reads both at once, then checks).
func (f *answerFrame) stepChunkData(buf []byte) bool {
	if len(buf)-f.pos < f.left {
		return false
	}
	end := f.pos + f.left
	if buf[end-2] != '\r' || buf[end-1] != '\n' {
		f.finish(frameBad, end)
		return true
	}
	f.body += f.left - 2
	f.phase = phaseChunkSize
	f.startChunkLine(end)
	return true
}

// stepTrailer waits for the trailer fields after the last chunk: fasthttp reads them as a
// header block (parseTrailer), so the same rules and the same window apply.
func (f *answerFrame) stepTrailer(buf []byte, maxHeader int) bool {
	blockEnd, stop := f.awaitBlock(buf, maxHeader)
	if blockEnd < 0 {
		return stop
	}
	if blockEnd-f.line == 2 {
		f.finish(frameWhole, blockEnd)
		return true
	}
	fi := scanFields(buf[f.line:blockEnd], false, true)
	if fi.bad {
		f.finish(frameBad, blockEnd)
		return true
	}
	f.finish(frameWhole, f.line+fi.end)
	return true
}

// fieldInfo is what a block of header fields says about the body.
type fieldInfo struct {
	end       int  // just past the empty line that ends the fields
	length    int  // Content-Length, if hasLength
	hasLength bool // a Content-Length
	chunked   bool // Transfer-Encoding: chunked, in an HTTP/1.1 answer
	bad       bool // fasthttp's parse fails on the block
}

// scanFields reads a block of fields as fasthttp's headerScanner and parseHeaders (or, for
// trailer, parseTrailer) do. b runs from the first field through the first CRLFCRLF and does
// not start with CRLF. Lines may end in LF alone; a line starting with a blank continues the
// one before; the fields end at the first empty line. Each field must have a colon, a key of
// token bytes (spaces allowed inside, trailing ones dropped) and a value of valid bytes. Only
// Content-Length (once, all digits, fits an int) and Transfer-Encoding (once, "chunked",
// heeded only in HTTP/1.1) count for framing; a trailer may have neither. Not mirrored: the
// names fasthttp forbids in a Trailer header or in trailers (other than these two): such an
// answer ends as framed and fasthttp reports the name.
func scanFields(b []byte, http11, trailer bool) fieldInfo {
	var fi fieldInfo
	if b[0] == ' ' || b[0] == '\t' {
		fi.bad = true
		return fi
	}
	seenLength, seenEncoding := false, false
	for r := 0; ; {
		start := r
		lineEnd, next := fieldLine(b, r)
		if lineEnd == start {
			fi.end = next
			return fi
		}
		first := b[start:lineEnd]
		colon := bytes.IndexByte(first, ':')
		if colon < 0 || !validFieldKey(first[:colon]) {
			fi.bad = true
			return fi
		}
		v := fieldValue(b, first[colon+1:], next)
		r = v.next
		if !v.valid {
			fi.bad = true
			return fi
		}
		key := trimBlanksRight(first[:colon])
		switch {
		case foldEqual(key, "Content-Length"):
			if trailer || seenLength {
				fi.bad = true
				return fi
			}
			seenLength = true
			fi.length, fi.hasLength = parseLength(v.value, v.single)
			fi.bad = !fi.hasLength
		case foldEqual(key, "Transfer-Encoding"):
			if trailer {
				fi.bad = true
			} else if http11 {
				fi.bad = seenEncoding || !v.single || !foldEqual(v.value, "chunked")
				seenEncoding, fi.chunked = true, true
			}
		}
		if fi.bad {
			return fi
		}
	}
}

// fieldLine returns the end of the line at b[r:], without its LF and one CR before it, and
// where the next line starts (headerScanner.readLine). b ends in LF, so there always is one.
func fieldLine(b []byte, r int) (end, next int) {
	i := bytes.IndexByte(b[r:], '\n')
	end, next = r+i, r+i+1
	if i > 0 && b[end-1] == '\r' {
		end--
	}
	return end, next
}

// joinedValue is a field's value as fasthttp joins it from its lines.
type joinedValue struct {
	value  []byte // the first piece that holds anything, or empty
	single bool   // the joined value is exactly value (nothing follows it)
	valid  bool   // every byte is one fasthttp accepts in a value
	next   int    // where the next field line starts
}

// fieldValue joins a field's value as fasthttp's readContinuedLineSlice does: rest (the first
// line after the colon), then each continuation line at b[r:], each trimmed of blanks, joined
// by single spaces, leading blanks dropped. That never needs the joined bytes here: a value
// that counts for framing (digits, or "chunked") is one piece, and a piece after it adds a
// space that spoils it.
func fieldValue(b, rest []byte, r int) joinedValue {
	v := joinedValue{value: trimBlanks(rest), single: true, valid: validFieldValue(rest)}
	for r < len(b) && (b[r] == ' ' || b[r] == '\t') {
		for b[r] == ' ' || b[r] == '\t' {
			r++ // b ends in CRLF, so this stops inside it
		}
		end, next := fieldLine(b, r)
		piece := trimBlanks(b[r:end])
		v.valid = v.valid && validFieldValue(piece)
		if len(v.value) > 0 {
			v.single = false
		} else {
			v.value = piece
		}
		r = next
	}
	v.next = r
	return v
}

// parseLength reads a Content-Length value as fasthttp's parseContentLength does: one or more
// digits and nothing else, the number at most math.MaxInt.
func parseLength(b []byte, single bool) (int, bool) {
	if !single || len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int(c - '0')
		if n > (math.MaxInt-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// validFieldKey is fasthttp's isValidHeaderKey: not empty, token bytes or spaces.
func validFieldKey(k []byte) bool {
	if len(k) == 0 {
		return false
	}
	for _, c := range k {
		if c != ' ' && !isTokenByte(c) {
			return false
		}
	}
	return true
}

// isTokenByte is fasthttp's validHeaderFieldByte: RFC 9110's tchar.
func isTokenByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// validFieldValue is fasthttp's validHeaderValueByte over b: tab, visible ASCII, space, and
// any byte from 0x80.
func validFieldValue(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// foldEqual is fasthttp's caseInsensitiveCompare (each byte OR 0x20), so it matches exactly
// what fasthttp matches, not only ASCII case variants.
func foldEqual(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != s[i]|0x20 {
			return false
		}
	}
	return true
}

// trimBlanks drops spaces and tabs at both ends (fasthttp's trim).
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return trimBlanksRight(b)
}

// trimBlanksRight drops spaces and tabs at the end (fasthttp's trimTrailingSpace).
func trimBlanksRight(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
