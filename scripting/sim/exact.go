package sim

import "math"

// FisherExact is the two-sided p of Fisher's exact test of the 2×2 table
// [[a, b], [c, d]] (here a run's won and other games in a row, a row a
// run): with the margins fixed, the chance of a table no more likely than
// the one observed, the hypergeometric's sum over those tables (a relative
// tolerance of 1e-7 counts the observed's ties, as R's fisher.test does).
// A negative count or an empty table gives 1: no evidence.
func FisherExact(a, b, c, d int) float64 {
	if a < 0 || b < 0 || c < 0 || d < 0 {
		return 1
	}
	r1, r2, c1 := a+b, c+d, a+c
	n := r1 + r2
	if n == 0 {
		return 1
	}
	lchoose := func(n, k int) float64 {
		x, _ := math.Lgamma(float64(n + 1))
		y, _ := math.Lgamma(float64(k + 1))
		z, _ := math.Lgamma(float64(n - k + 1))
		return x - y - z
	}
	all := lchoose(n, c1)
	logp := func(x int) float64 { return lchoose(r1, x) + lchoose(r2, c1-x) - all }
	observed := logp(a) + math.Log1p(1e-7)
	p := 0.0
	for x := max(0, c1-r2); x <= min(r1, c1); x++ {
		if lp := logp(x); lp <= observed {
			p += math.Exp(lp)
		}
	}
	return min(p, 1)
}

// exactNeeded reports whether a comparison of k1 of n1 with k2 of n2 is
// small enough that the approximate interval is not to be trusted: a cell
// of the 2×2 table expects fewer than 5 games (Cochran's rule), so that
// Fisher's exact test decides instead.
func exactNeeded(k1, n1, k2, n2 int) bool {
	n, k := n1+n2, k1+k2
	if n == 0 {
		return false
	}
	// The smallest expected count is the smaller row's total times the
	// smaller column's, over the whole.
	return float64(min(n1, n2))*float64(min(k, n-k)) < 5*float64(n)
}

// countDiff is the difference of two rates, k2 of n2 − k1 of n1, with its
// 95% interval (Newcombe's hybrid score interval); where the counts are
// small (exactNeeded) its significance is Fisher's exact test at 5%, its
// P set and Exact true. A run of no game is never significantly
// different.
func countDiff(k1, n1, k2, n2 int) Diff {
	p1, ci1 := rate(k1, n1)
	p2, ci2 := rate(k2, n2)
	d := rateDiff(p1, ci1, p2, ci2)
	switch {
	case n1 == 0 || n2 == 0:
		d.Significant = false
	case exactNeeded(k1, n1, k2, n2):
		d.P, d.Exact = round6(FisherExact(k1, n1-k1, k2, n2-k2)), true
		d.Significant = d.P < 0.05
	}
	return d
}
