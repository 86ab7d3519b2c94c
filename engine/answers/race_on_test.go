//go:build race

package answers

// raceDetector is set when the tests run with -race: the detector slows every Add many times
// over, so the longest test runs a tenth of its requests.
const raceDetector = true
