package main

import (
	"os"
	"testing"
)

// TestKeyInputTellsTheEnd: when the dashboard's input ends (here a pipe whose writer closed;
// a terminal that went away without a SIGHUP reads the same), onEnd is told, once, so the
// dashboard stops waiting for keys nobody can press. Keys before the end pass through.
func TestKeyInputTellsTheEnd(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ends := 0
	in := &keyInput{File: r, onEnd: func() { ends++ }}
	if _, err := w.WriteString("q"); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 8)
	if n, err := in.Read(b); n != 1 || err != nil || b[0] != 'q' || ends != 0 {
		t.Fatalf("read %q, %v, %d ends: want the key and no end", b[:n], err, ends)
	}
	w.Close()
	for range 2 {
		if _, err := in.Read(b); err == nil {
			t.Fatal("no error at the end of the input")
		}
	}
	if ends != 1 {
		t.Errorf("onEnd called %d times, want once", ends)
	}
}
