package engine

// Rate-limit headers: which answer headers announce a provider's limits (Retry-After,
// X-RateLimit-*, X-Rate-Limit-*, the IETF RateLimit ones), and how a worker records them into
// its Batch cheaply. Any transport with HTTP headers records through rateLimitHeaders.

// rateLimitPrefixes are the header name prefixes providers use to announce limits, lower case.
var rateLimitPrefixes = [...]string{"retry-after", "x-ratelimit-", "x-rate-limit-", "ratelimit"}

// isRateLimitHeader reports Retry-After, X-RateLimit-*, X-Rate-Limit-* and the IETF RateLimit
// headers (RateLimit, RateLimit-Policy, RateLimit-Limit …), whatever their case.
func isRateLimitHeader(k []byte) bool {
	for _, p := range rateLimitPrefixes {
		if len(k) >= len(p) && asciiEqualFold(k[:len(p)], p) {
			return true
		}
	}
	return false
}

// asciiEqualFold compares a header name with a lower-case ASCII string, ignoring case.
func asciiEqualFold(b []byte, lower string) bool {
	for i := range len(b) {
		ch := b[i]
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if ch != lower[i] {
			return false
		}
	}
	return true
}

// rateLimitHeaders records one worker's rate-limit headers. Only a value (and a header name
// the first time it is seen) is copied, because the batch outlives the answer.
type rateLimitHeaders struct {
	names []string // header names already allocated, reused for every answer
}

// record appends a rate-limit header to b unless the batch already ends its record of that
// header with the same value (a flood of identical "Retry-After: 1" costs nothing).
func (r *rateLimitHeaders) record(b *Batch, k, v []byte) {
	name := ""
	for _, n := range r.names {
		if n == string(k) {
			name = n
			break
		}
	}
	if name == "" {
		name = string(k)
		r.names = append(r.names, name)
	}
	for i := len(b.Headers) - 1; i >= 0; i-- {
		if b.Headers[i].Name == name {
			if b.Headers[i].Value == string(v) {
				return
			}
			break
		}
	}
	b.Headers = append(b.Headers, HeaderSeen{Name: name, Value: string(v)})
}
