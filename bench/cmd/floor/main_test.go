package main

import (
	"bytes"
	"testing"
)

func TestComplete(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nServer: bench-target\r\nContent-Length: 5\r\n\r\n"
	for _, tc := range []struct {
		name string
		in   string
		want bool
	}{
		{"nothing", "", false},
		{"status line only", "HTTP/1.1 200 OK\r\n", false},
		{"headers cut", head[:len(head)-2], false},
		{"body missing", head, false},
		{"body short", head + "abcd", false},
		{"whole", head + "abcde", true},
		{"more than whole", head + "abcdef", true},
		{"no length: headers end it", "HTTP/1.1 204 No Content\r\n\r\n", true},
		{"length not a number", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := complete([]byte(tc.in)); got != tc.want {
				t.Errorf("complete(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzComplete: any bytes, no panic; a whole answer stays whole with more bytes after it.
func FuzzComplete(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if complete(b) && !complete(append(bytes.Clone(b), "x"...)) {
			t.Errorf("complete(%q) but not with a byte more", b)
		}
	})
}
