package answers

import (
	"encoding/binary"
	"encoding/hex"
	"math/big"
)

// Numbers are compared by value, whatever their notation: 1, 1.0, 10e-1 and 0.1e1 are one
// number. Both sides go through the same function, so equal values write equal keys:
//
//   - an integer below 2^256 (a JSON number, or with NumbersByValue a 0x-hex string) writes its
//     magnitude in bytes, so 436, 4.36e2 and "0x1b4" meet;
//   - any other number writes its decimal digits and exponent, trailing zeros taken off;
//   - text that is no strict JSON number (fastjson also takes "NaN", "+1", "1-2") writes as
//     itself, so it equals only the same text.
//
// 2^256 bounds the integers because it bounds an EVM word: every quantity a node answers in
// hex fits, and a decimal exponent such as 1e999999999 never costs a huge big.Int.
const (
	tagInt     = 'i'
	tagDecimal = 'd'
	tagRaw     = 'r'
	maxIntBits = 256
)

// appendNumber appends the key of the JSON number text s.
func appendNumber(dst, s []byte) []byte {
	neg, intPart, frac, exp, ok := splitNumber(s)
	if !ok {
		return appendTagged(dst, tagRaw, s)
	}
	// The digits without the point, on the stack for any number a node writes.
	var buf [80]byte
	digits := append(append(buf[:0], intPart...), frac...)
	exp -= int64(len(frac))
	// Leading zeros say nothing; trailing zeros move into the exponent.
	for len(digits) > 0 && digits[0] == '0' {
		digits = digits[1:]
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 {
		return appendMagnitude(dst, false, nil) // zero, and -0 is zero
	}
	if exp >= 0 && int64(len(digits))+exp <= 78 { // 10^78 > 2^256: longer is never an int
		if out, ok := appendDecimalInt(dst, neg, digits, int(exp)); ok {
			return out
		}
	}
	dst = append(dst, tagDecimal, sign(neg))
	dst = binary.AppendVarint(dst, exp)
	dst = binary.AppendUvarint(dst, uint64(len(digits)))
	return append(dst, digits...)
}

// appendDecimalInt appends the integer digits·10^exp as a magnitude, unless it is 2^256 or
// more.
func appendDecimalInt(dst []byte, neg bool, digits []byte, exp int) ([]byte, bool) {
	if len(digits)+exp <= 19 { // below 10^19 < 2^64: no big.Int
		var n uint64
		for _, c := range digits {
			n = n*10 + uint64(c-'0')
		}
		for range exp {
			n *= 10
		}
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], n)
		return appendMagnitude(dst, neg, b[:]), true
	}
	n, ok := new(big.Int).SetString(string(digits), 10)
	if !ok {
		return dst, false
	}
	if exp > 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	}
	if n.BitLen() > maxIntBits {
		return dst, false
	}
	return appendMagnitude(dst, neg, n.Bytes()), true
}

// appendHex appends the key of a 0x-hex string as the number it writes, when it is one below
// 2^256; ok is false for any other string. Longer strings (a logs bloom, call data) are told
// apart by their length before any digit is read.
func appendHex(dst, s []byte) ([]byte, bool) {
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return dst, false
	}
	h := s[2:]
	// Leading zeros, eight at a time: an empty block's logs bloom is 512 of them.
	const zeros8 = 0x3030303030303030
	for len(h) >= 8 && binary.LittleEndian.Uint64(h) == zeros8 {
		h = h[8:]
	}
	for len(h) > 0 && h[0] == '0' {
		h = h[1:]
	}
	if len(h) > maxIntBits/4 {
		return dst, false
	}
	var b [maxIntBits/8 + 1]byte
	n := (len(h) + 1) / 2
	if len(h)%2 == 1 { // an odd digit is the high byte's low nibble
		first := [2]byte{'0', h[0]}
		if _, err := hex.Decode(b[:1], first[:]); err != nil {
			return dst, false
		}
		if _, err := hex.Decode(b[1:n], h[1:]); err != nil {
			return dst, false
		}
	} else if _, err := hex.Decode(b[:n], h); err != nil {
		return dst, false
	}
	return appendMagnitude(dst, false, b[:n]), true
}

// appendMagnitude appends an integer: its sign, then its big-endian bytes without leading
// zeros, length first.
func appendMagnitude(dst []byte, neg bool, b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 {
		neg = false
	}
	dst = append(dst, tagInt, sign(neg))
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// splitNumber reads strict JSON number text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// into its sign, integer and fraction digits and exponent. An exponent past ±10^15 is
// clamped: no number a node answers comes near, and keys stay exact for any smaller one.
func splitNumber(s []byte) (neg bool, intPart, frac []byte, exp int64, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart = s[start:i]
	if len(intPart) == 0 || (len(intPart) > 1 && intPart[0] == '0') {
		return false, nil, nil, 0, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if frac = s[fs:i]; len(frac) == 0 {
			return false, nil, nil, 0, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if exp, i, ok = splitExponent(s, i+1); !ok {
			return false, nil, nil, 0, false
		}
	}
	if i != len(s) {
		return false, nil, nil, 0, false
	}
	return neg, intPart, frac, exp, true
}

// splitExponent reads the exponent's digits from s[i:]: [+-]?[0-9]+.
func splitExponent(s []byte, i int) (exp int64, next int, ok bool) {
	eneg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		eneg = s[i] == '-'
		i++
	}
	es := i
	for i < len(s) && isDigit(s[i]) {
		if exp < 1e15 {
			exp = exp*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == es {
		return 0, i, false
	}
	if eneg {
		exp = -exp
	}
	return exp, i, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func sign(neg bool) byte {
	if neg {
		return '-'
	}
	return '+'
}

// appendTagged appends tag, the length of b and b: an unambiguous piece of a key.
func appendTagged(dst []byte, tag byte, b []byte) []byte {
	dst = append(dst, tag)
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}
