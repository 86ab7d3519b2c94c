package tui

import "regexp"

// ansiSeq matches the escape sequences Lip Gloss writes: CSI (styles, cursor) and OSC (links,
// titles) sequences.
var ansiSeq = regexp.MustCompile("\x1b\\[[0-9;:?<=>]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// stripANSI removes escape sequences, leaving the text a terminal would show.
func stripANSI(s string) string { return ansiSeq.ReplaceAllString(s, "") }
