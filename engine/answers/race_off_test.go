//go:build !race

package answers

// raceDetector is set when the tests run with -race.
const raceDetector = false
