package importers

// Checks shared with `roleprint stats`, which reports suspicious content
// in imported corpora with the same rules the importers use.

// HasMojibake reports whether s holds a run of characters that reads like
// UTF-8 text decoded as Windows-1252 ("Ã©" for "é", "â€™" for "’"), the
// runs the reading layer repairs (see repairMojibake).
func HasMojibake(s string) bool {
	if !hasMojibakeLead(s) {
		return false
	}
	rs := []rune(s)
	for i := range rs {
		if _, n := mojibakeAt(rs, i); n > 0 {
			return true
		}
	}
	return false
}
