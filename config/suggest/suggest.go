// Package suggest finds the name a mistyped name most likely meant: the
// "did you mean" of an unknown key. Package config suggests a key of a
// configuration with it, and package scripting/mod a key of a mod's
// manifest; it imports nothing, so that what only reads a manifest does
// not carry the engine.
package suggest

import "strings"

// For returns the name of names that s most likely meant, or "": Same's
// when there is one, else Nearest's.
func For(s string, names []string) string {
	if n := Same(s, names); n != "" {
		return n
	}
	return Nearest(s, names)
}

// Same returns the first name of names that differs from s only in case
// or in '-' for '_', or "".
func Same(s string, names []string) string {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }
	for _, n := range names {
		if norm(n) == norm(s) {
			return n
		}
	}
	return ""
}

// Nearest returns the name of names nearest to s by edit distance (case
// aside; the first of equals), when it is near enough to be a likely
// typo (at most a third of the longer name's letters differ), or "".
func Nearest(s string, names []string) string {
	best, bestD := "", -1
	for _, n := range names {
		d := editDistance(strings.ToLower(s), strings.ToLower(n))
		if bestD < 0 || d < bestD {
			best, bestD = n, d
		}
	}
	if bestD < 0 || bestD*3 > max(len(s), len(best)) {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b, in
// bytes: the Levenshtein distance with a swap of two neighbouring letters
// counted as one edit, the commonest slip of a typist ("versoin").
func editDistance(a, b string) int {
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	before, prev, cur := rows[0], rows[1], rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
