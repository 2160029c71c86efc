// Package htmlreport draws a match as one static HTML page: the score and
// Elo with its error over the games played, the SPRT's log-likelihood ratio
// against its bounds, each engine's move times and peak memory, faults by
// kind, and the games with their openings and results. Charts are inline
// SVG; the page loads nothing, so it opens from a shared disk or a mail.
package htmlreport

import (
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/results"
)

// Page is what the report shows.
type Page struct {
	Header  results.Header
	Games   []results.Game // counted games, in the order they were counted
	Summary *match.Summary
	Running bool      // the match goes on: the page reloads itself
	Updated time.Time // when the page was written
	Note    string    // a line under the title, e.g. which shard files were merged
}

// WriteFile writes the page to path through a temporary file in the same
// directory, so that a browser never reads half a page.
func WriteFile(path string, p Page) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".report-*.html")
	if err != nil {
		return err
	}
	err = Write(tmp, p)
	if err == nil {
		err = tmp.Chmod(0o644) // a report is for reading, by anyone who may see the directory
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

const style = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
td.l,th.l{text-align:left}.muted{color:#666}.big{font-size:18px}
svg{display:block;margin:4px 0;background:#fafafa;border:1px solid #e4e4e4}
svg text{font:11px system-ui,sans-serif;fill:#444}`

// Write writes the page.
func Write(w io.Writer, p Page) error {
	var b strings.Builder
	s := p.Summary
	title := "wuzi-match: " + strings.Join(s.Names, " vs ")
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
	if p.Running {
		b.WriteString(`<meta http-equiv="refresh" content="10">`)
	}
	fmt.Fprintf(&b, "<title>%s</title><style>%s</style></head><body>\n", esc(title), style)
	fmt.Fprintf(&b, "<h1>%s</h1>\n", esc(title))
	state := "finished"
	if p.Running {
		state = "running"
	}
	if s.Stopped != "" {
		state = "stopped: " + s.Stopped
	}
	fmt.Fprintf(&b, "<p class=\"muted\">%d of %d games, %s; updated %s", s.Done, s.Total, esc(state), p.Updated.UTC().Format("2006-01-02 15:04:05 UTC"))
	if p.Note != "" {
		fmt.Fprintf(&b, "<br>%s", esc(p.Note))
	}
	b.WriteString("</p>\n")
	writeConditions(&b, p)
	writeScore(&b, p)
	writeCharts(&b, p)
	writeEngines(&b, p)
	writeFaults(&b, p)
	writeGames(&b, p)
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func esc(s string) string { return html.EscapeString(s) }

func ruleName(h results.Header) string {
	cfg, err := h.Config()
	if err != nil {
		return fmt.Sprint("rule ", h.Rule)
	}
	return cfg.Settings.Rule.String()
}

func writeConditions(b *strings.Builder, p Page) {
	h := p.Header
	match := "no limit"
	if h.MatchMS > 0 {
		match = fmtMS(h.MatchMS)
	}
	fmt.Fprintf(b, "<p>%s, %dx%d, %s a move, %s a game, tolerance %s, ", esc(ruleName(h)), h.Width, h.Height,
		fmtMS(h.TurnMS), match, fmtMS(h.ToleranceMS))
	openings := "openings in order"
	if h.Random {
		openings = fmt.Sprintf("openings drawn with <b>seed %d</b> (<code>--seed %d</code> replays them)", h.Seed, h.Seed)
	}
	fmt.Fprintf(b, "%d openings, %s", h.OpeningsIn, openings)
	if h.Shard.Count > 1 {
		fmt.Fprintf(b, ", shard %d of %d (0-based)", h.Shard.Index, h.Shard.Count)
	}
	b.WriteString(".</p>\n")
}

func fmtMS(ms int64) string { return (time.Duration(ms) * time.Millisecond).String() }

// EloText formats an Elo difference and its 95% margin.
func EloText(r elo.Result) string {
	d, m := r.Diff(), r.Margin()
	switch {
	case math.IsInf(d, 0):
		return fmt.Sprintf("%+.0f", d)
	case math.IsInf(m, 0) || math.IsNaN(m):
		return fmt.Sprintf("%+.1f ± inf", d)
	}
	return fmt.Sprintf("%+.1f ± %.1f", d, m)
}

func writeScore(b *strings.Builder, p Page) {
	s := p.Summary
	all := s.Overall()
	fmt.Fprintf(b, "<p class=\"big\"><b>%s</b>: W-L-D %d-%d-%d, score %.1f%%, Elo %s (95%%)</p>\n",
		esc(s.Names[0]), all.Wins, all.Losses, all.Draws, 100*all.Score(), esc(EloText(all)))
	b.WriteString("<table><tr><th class=l>opponent</th><th>games</th><th>W</th><th>L</th><th>D</th><th>score</th><th>Elo (95%)</th><th>as Black</th><th>as White</th><th class=l>wins by</th><th class=l>losses by</th><th class=l>draws by</th></tr>\n")
	for _, t := range s.Pairs {
		fmt.Fprintf(b, "<tr><td class=l>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f%%</td><td>%s</td><td>%s</td><td>%s</td><td class=l>%s</td><td class=l>%s</td><td class=l>%s</td></tr>\n",
			esc(t.Opponent), t.Games(), t.Wins, t.Losses, t.Draws, 100*t.Score(), esc(EloText(t.Result)),
			esc(ColorText(t.AsBlack)), esc(ColorText(t.AsWhite)),
			esc(Reasons(t.WinsBy)), esc(Reasons(t.LossesBy)), esc(Reasons(t.DrawsBy)))
	}
	b.WriteString("</table>\n")
	if h := p.Header; h.SPRT != nil && len(s.Pairs) == 1 {
		lo, hi := h.SPRT.Bounds()
		fmt.Fprintf(b, "<p>SPRT elo0 %g, elo1 %g, alpha %g, beta %g: LLR <b>%.3f</b>, bounds (%.3f, %.3f): <b>%s</b></p>\n",
			h.SPRT.Elo0, h.SPRT.Elo1, h.SPRT.Alpha, h.SPRT.Beta, h.SPRT.LLR(s.Pairs[0].Result), lo, hi, h.SPRT.Decide(s.Pairs[0].Result))
	}
}

// ColorText formats the record of the games played with one colour:
// W-L-D and the score.
func ColorText(r elo.Result) string {
	if r.Games() == 0 {
		return "no games"
	}
	return fmt.Sprintf("%d-%d-%d (%.1f%%)", r.Wins, r.Losses, r.Draws, 100*r.Score())
}

// Reasons formats counts by reason, most frequent first.
func Reasons(m map[match.Reason]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]match.Reason, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b match.Reason) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(string(a), string(b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// points are the engine under test's running results after each game.
func points(p Page) []elo.Result {
	var r elo.Result
	out := make([]elo.Result, 0, len(p.Games))
	for _, g := range p.Games {
		testBlack := g.BlackEngine == 0
		switch {
		case g.Result == "1-0" && testBlack, g.Result == "0-1" && !testBlack:
			r.Wins++
		case g.Result == "1-0", g.Result == "0-1":
			r.Losses++
		default:
			r.Draws++
		}
		out = append(out, r)
	}
	return out
}

// chart is a line chart's frame: x from 0 to xmax games, y from ylo to yhi.
type chart struct {
	b              *strings.Builder
	w, h           float64
	left, bottom   float64
	xmax, ylo, yhi float64
}

func (c chart) x(v float64) float64 { return c.left + (c.w-c.left-10)*v/c.xmax }
func (c chart) y(v float64) float64 {
	v = min(max(v, c.ylo), c.yhi)
	return 10 + (c.h-c.bottom-10)*(c.yhi-v)/(c.yhi-c.ylo)
}

func (c chart) frame(title string, yticks []float64) {
	fmt.Fprintf(c.b, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\">\n", c.w, c.h, c.w, c.h, esc(title))
	for _, t := range yticks {
		fmt.Fprintf(c.b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			c.left, c.w-10, c.y(t), c.y(t), c.left-4, c.y(t)+4, t)
	}
	step := math.Max(1, math.Ceil(c.xmax/10))
	for v := 0.0; v <= c.xmax; v += step {
		fmt.Fprintf(c.b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", c.x(v), c.h-c.bottom+14, v)
	}
	fmt.Fprintf(c.b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">games</text>\n", c.x(c.xmax/2), c.h-4)
}

func writeCharts(b *strings.Builder, p Page) {
	pts := points(p)
	if len(pts) == 0 {
		return
	}
	b.WriteString("<h2>Elo over the games played (95% band)</h2>\n")
	const clip = 800
	c := chart{b: b, w: 1000, h: 260, left: 48, bottom: 34, xmax: float64(len(pts)), ylo: -clip, yhi: clip}
	c.frame("Elo over games", []float64{-800, -400, -200, 0, 200, 400, 800})
	var band, upper, lower, line []string
	for i, r := range pts {
		d, m := r.Diff(), r.Margin()
		if math.IsNaN(m) || math.IsInf(m, 0) {
			m = 2 * clip
		}
		x := c.x(float64(i + 1))
		upper = append(upper, fmt.Sprintf("%.1f,%.1f", x, c.y(d+m)))
		lower = append(lower, fmt.Sprintf("%.1f,%.1f", x, c.y(d-m)))
		line = append(line, fmt.Sprintf("%.1f,%.1f", x, c.y(d)))
	}
	slices.Reverse(lower)
	band = append(upper, lower...)
	fmt.Fprintf(b, "<polygon points=\"%s\" fill=\"#9ecae1\" fill-opacity=\"0.5\"/>\n", strings.Join(band, " "))
	fmt.Fprintf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"#08519c\" stroke-width=\"2\"/>\n", strings.Join(line, " "))
	last := pts[len(pts)-1]
	fmt.Fprintf(b, "<text x=\"%.1f\" y=\"14\" text-anchor=\"end\">%s: %s after %d games (clipped at ±%d)</text>\n</svg>\n",
		c.w-12, esc(p.Summary.Names[0]), esc(EloText(last)), len(pts), clip)

	h := p.Header
	if h.SPRT == nil || len(p.Summary.Pairs) != 1 {
		return
	}
	lo, hi := h.SPRT.Bounds()
	b.WriteString("<h2>SPRT log-likelihood ratio against its bounds</h2>\n")
	llr := make([]float64, len(pts))
	top, bot := hi*1.2, lo*1.2
	for i, r := range pts {
		llr[i] = h.SPRT.LLR(r)
		top, bot = max(top, llr[i]), min(bot, llr[i])
	}
	c = chart{b: b, w: 1000, h: 220, left: 48, bottom: 34, xmax: float64(len(pts)), ylo: bot, yhi: top}
	c.frame("SPRT LLR over games", []float64{math.Round(lo*100) / 100, 0, math.Round(hi*100) / 100})
	for _, bound := range []float64{lo, hi} {
		fmt.Fprintf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cb181d\" stroke-dasharray=\"6 4\"/>\n", c.left, c.w-10, c.y(bound), c.y(bound))
	}
	line = line[:0]
	for i, v := range llr {
		line = append(line, fmt.Sprintf("%.1f,%.1f", c.x(float64(i+1)), c.y(v)))
	}
	fmt.Fprintf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"#54278f\" stroke-width=\"2\"/>\n</svg>\n", strings.Join(line, " "))
}

// writeEngines draws each engine's move-time histogram and peak memory
// against its own limit.
func writeEngines(b *strings.Builder, p Page) {
	s, h := p.Summary, p.Header
	b.WriteString("<h2>Move times and memory by engine</h2>\n")
	hard := time.Duration(h.TurnMS+h.ToleranceMS) * time.Millisecond
	limit := hard // the axis: the hard limit, or the slowest move beyond it
	for _, ts := range s.MoveTimes {
		for _, t := range ts {
			limit = max(limit, t)
		}
	}
	const bins = 40
	const w, rowH = 1000.0, 70.0
	height := rowH*float64(len(s.Names)) + 30
	fmt.Fprintf(b, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"move times\">\n", w, height, w, height)
	left, right := 150.0, w-20
	turn := time.Duration(h.TurnMS) * time.Millisecond
	xOf := func(d time.Duration) float64 { return left + (right-left)*float64(d)/float64(limit) }
	for i, n := range s.Names {
		counts := make([]int, bins)
		for _, t := range s.MoveTimes[i] {
			k := min(int(float64(bins)*float64(t)/float64(limit)), bins-1)
			counts[k]++
		}
		top := slices.Max(counts)
		y0 := 10 + rowH*float64(i)
		med, worst := s.MoveTime(i)
		fmt.Fprintf(b, "<text x=\"4\" y=\"%.1f\">%s</text><text x=\"4\" y=\"%.1f\">median %d ms</text><text x=\"4\" y=\"%.1f\">worst %d ms, %d moves</text>\n",
			y0+14, esc(n), y0+30, med.Milliseconds(), y0+46, worst.Milliseconds(), len(s.MoveTimes[i]))
		for k, c := range counts {
			if c == 0 {
				continue
			}
			bh := (rowH - 16) * float64(c) / float64(top)
			x := left + (right-left)*float64(k)/bins
			fmt.Fprintf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#6baed6\"><title>%d moves</title></rect>\n",
				x, y0+rowH-10-bh, (right-left)/bins-1, bh, c)
		}
		fmt.Fprintf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#bbb\"/>\n", left, right, y0+rowH-10, y0+rowH-10)
	}
	for _, mark := range []struct {
		at    time.Duration
		label string
	}{{turn, "turn time"}, {hard, "time-out at"}} {
		x := xOf(mark.at)
		fmt.Fprintf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"6\" y2=\"%.1f\" stroke=\"#cb181d\" stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s %d ms</text>\n",
			x, x, height-24, x-2, height-8, mark.label, mark.at.Milliseconds())
	}
	fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%.1f\">0 ms</text></svg>\n", left, height-8)

	// Memory: a bar per engine, its own limit marked.
	top := int64(1)
	for i := range s.Names {
		top = max(top, s.PeakMemory[i], s.MemoryLimits[i])
	}
	mh := 28*float64(len(s.Names)) + 24
	fmt.Fprintf(b, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"peak memory\">\n", w, mh, w, mh)
	mx := func(n int64) float64 { return left + (right-left-260)*float64(n)/float64(top) }
	for i, n := range s.Names {
		y := 8 + 28*float64(i)
		peak, lim := s.PeakMemory[i], s.MemoryLimits[i]
		colour := "#74c476"
		if lim > 0 && peak > lim {
			colour = "#fb6a4a"
		}
		limText := "no limit"
		if lim > 0 {
			limText = "limit " + mib(lim)
			fmt.Fprintf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cb181d\" stroke-width=\"2\"/>\n", mx(lim), mx(lim), y-3, y+21)
		}
		fmt.Fprintf(b, "<text x=\"4\" y=\"%.1f\">%s</text><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"18\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s peak, %s</text>\n",
			y+13, esc(n), left, y, mx(peak)-left, colour, mx(max(peak, lim))+6, y+13, mib(peak), limText)
	}
	fmt.Fprintf(b, "<text x=\"4\" y=\"%.1f\" class=\"muted\">peak memory: USS of the engine's process tree while thinking, against its own limit</text></svg>\n", mh-6)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// failureKinds are the reasons that are an engine's fault, in table order.
func failureKinds() []match.Reason {
	return []match.Reason{match.ReasonTimeout, match.ReasonCrash, match.ReasonIllegal,
		match.ReasonUnparseable, match.ReasonMemory, match.ReasonFoul}
}

func writeFaults(b *strings.Builder, p Page) {
	s := p.Summary
	kinds := failureKinds()
	counts := make([]map[match.Reason]int, len(s.Names))
	for i := range counts {
		counts[i] = map[match.Reason]int{}
	}
	for _, g := range p.Games {
		loser := -1
		switch g.Result {
		case "1-0":
			loser = g.WhiteEngine
		case "0-1":
			loser = g.BlackEngine
		}
		if loser >= 0 && loser < len(counts) && slices.Contains(kinds, match.Reason(g.Reason)) {
			counts[loser][match.Reason(g.Reason)]++
		}
	}
	b.WriteString("<h2>Faults by kind (games lost by them)</h2>\n<table><tr><th class=l>engine</th>")
	for _, k := range kinds {
		fmt.Fprintf(b, "<th>%s</th>", esc(string(k)))
	}
	b.WriteString("</tr>\n")
	for i, n := range s.Names {
		fmt.Fprintf(b, "<tr><td class=l>%s</td>", esc(n))
		for _, k := range kinds {
			fmt.Fprintf(b, "<td>%d</td>", counts[i][k])
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

func writeGames(b *strings.Builder, p Page) {
	b.WriteString("<h2>Games</h2>\n<table><tr><th>#</th><th class=l>Black</th><th class=l>White</th><th class=l>opening</th><th>result</th><th class=l>by</th><th>stones</th><th class=l>detail</th></tr>\n")
	games := slices.Clone(p.Games)
	slices.SortFunc(games, func(a, b results.Game) int { return a.Number - b.Number })
	for _, g := range games {
		fmt.Fprintf(b, "<tr><td>%d</td><td class=l>%s</td><td class=l>%s</td><td class=l>%s</td><td>%s</td><td class=l>%s</td><td>%d</td><td class=l>%s</td></tr>\n",
			g.Number, esc(g.Black), esc(g.White), esc(g.Opening), esc(g.Result), esc(g.Reason), len(g.Moves), esc(g.Detail))
	}
	b.WriteString("</table>\n")
}
