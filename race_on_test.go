//go:build race

package main

// raceDetector is set when the tests run with -race: the detector slows the tester (and the
// in-process mock node) several times, so the heaviest load tests scale their rates down.
const raceDetector = true
