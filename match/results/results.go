// Package results keeps a match's games as JSON lines, so that the shards
// of a match played on different machines can be merged into the report
// the whole match would have given.
//
// A results file is one header line describing the match, then one line a
// game, in the order the games finished:
//
//	{"kind":"match","format":1,"engines":[...],"width":15,...,"seed":42,"total":40,"shard":{"index":0,"count":4}}
//	{"kind":"game","number":1,"black":"Wuzi","white":"Rapfi","opening":"0,0, 1,0, 1,3","moves":[[7,7],...],"result":"0-1","reason":"five",...}
//
// Merge reads any set of such files from the same match and counts their
// games in schedule order, as a one-process run with one game at a time
// does; an SPRT stops the count where it is decided.
package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"wuzi/eval"
	"wuzi/match"
	"wuzi/match/elo"
	"wuzi/match/engine"
	"wuzi/match/opening"
	"wuzi/match/record"
)

// Format is the version of the file layout written here.
const Format = 1

// Engine is one engine of the match as its spec gave it.
type Engine struct {
	Name    string     `json:"name"`
	Command string     `json:"command"`
	Args    []string   `json:"args,omitempty"`
	Dir     string     `json:"dir,omitempty"`
	Options [][]string `json:"options,omitempty"` // [key, value] pairs, in order
}

// Header is the first line of a results file: the match the games belong
// to. Shards of one match have equal headers but for Shard.
type Header struct {
	Kind        string     `json:"kind"` // "match"
	Format      int        `json:"format"`
	Engines     []Engine   `json:"engines"`
	Names       []string   `json:"names"` // as tables show them, made unique
	Width       int        `json:"width"`
	Height      int        `json:"height"`
	Rule        int        `json:"rule"`
	TurnMS      int64      `json:"timeout_turn_ms"`
	MatchMS     int64      `json:"timeout_match_ms"`
	ToleranceMS int64      `json:"tolerance_ms"`
	MaxMemory   int64      `json:"max_memory"`
	MaxPlies    int        `json:"max_plies,omitempty"`
	Begin       bool       `json:"begin,omitempty"`
	Lenient     bool       `json:"lenient,omitempty"`
	Info        [][]string `json:"info,omitempty"` // match-wide extra INFO [key, value] pairs
	Games       int        `json:"games"`          // per pairing
	Random      bool       `json:"random"`
	Seed        uint64     `json:"seed"`
	Openings    []string   `json:"openings"` // the set drawn from, offset format
	OpeningsIn  int        `json:"openings_in_use"`
	Skipped     int        `json:"openings_skipped,omitempty"`
	SPRT        *elo.SPRT  `json:"sprt,omitempty"`
	Total       int        `json:"total"` // games in the whole schedule
	Shard       ShardInfo  `json:"shard"`
}

// ShardInfo is the shard a file holds; Count 0 or 1 for a whole match.
type ShardInfo struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// NewHeader describes the match cfg.
func NewHeader(cfg match.Config) Header {
	h := Header{Kind: "match", Format: Format, Names: match.Names(cfg.Engines),
		Width: cfg.Settings.Width, Height: cfg.Settings.Height, Rule: int(cfg.Settings.Rule),
		TurnMS: cfg.Settings.TurnTime.Milliseconds(), MatchMS: cfg.Settings.MatchTime.Milliseconds(),
		ToleranceMS: cfg.Settings.Tolerance.Milliseconds(), MaxMemory: cfg.Settings.MaxMemory,
		MaxPlies: cfg.Settings.MaxPlies, Begin: cfg.Settings.UseBegin, Lenient: cfg.Settings.Lenient,
		Games: cfg.Games, Random: cfg.Random, Seed: cfg.Seed, SPRT: cfg.SPRT,
		Shard: ShardInfo{cfg.Shard.Index, cfg.Shard.Count}}
	for _, o := range cfg.Settings.Info {
		h.Info = append(h.Info, []string{o.Key, o.Value})
	}
	for _, sp := range cfg.Engines {
		e := Engine{Name: sp.Name, Command: sp.Command, Args: sp.Args, Dir: sp.Dir}
		for _, o := range sp.Options {
			e.Options = append(e.Options, []string{o.Key, o.Value})
		}
		h.Engines = append(h.Engines, e)
	}
	for _, o := range cfg.OpeningSet() {
		h.Openings = append(h.Openings, o.String())
	}
	placed, skipped := cfg.Placed()
	h.OpeningsIn, h.Skipped = len(placed), skipped
	if len(cfg.Engines) == 1 { // an engine playing itself, as Run has it
		cfg.Engines = append(slices.Clone(cfg.Engines), cfg.Engines[0])
	}
	h.Total = len(match.Schedule(cfg, max(len(placed), 1)))
	return h
}

// Config is the match the header describes.
func (h Header) Config() (match.Config, error) {
	rule, err := eval.ParseRule(h.Rule)
	if err != nil {
		return match.Config{}, err
	}
	cfg := match.Config{
		Settings: match.Settings{Width: h.Width, Height: h.Height, Rule: rule,
			TurnTime: time.Duration(h.TurnMS) * time.Millisecond, MatchTime: time.Duration(h.MatchMS) * time.Millisecond,
			Tolerance: time.Duration(h.ToleranceMS) * time.Millisecond, MaxMemory: h.MaxMemory,
			MaxPlies: h.MaxPlies, UseBegin: h.Begin, Lenient: h.Lenient},
		Games: h.Games, Random: h.Random, Seed: h.Seed, SPRT: h.SPRT,
		Shard: match.Shard{Index: h.Shard.Index, Count: h.Shard.Count},
	}
	for _, kv := range h.Info {
		if len(kv) != 2 {
			return match.Config{}, fmt.Errorf("info %q is not [key, value]", kv)
		}
		cfg.Settings.Info = append(cfg.Settings.Info, engine.Option{Key: kv[0], Value: kv[1]})
	}
	for _, e := range h.Engines {
		sp := engine.Spec{Name: e.Name, Command: e.Command, Args: e.Args, Dir: e.Dir}
		for _, kv := range e.Options {
			if len(kv) != 2 {
				return match.Config{}, fmt.Errorf("engine %s: option %q is not [key, value]", e.Name, kv)
			}
			sp.Options = append(sp.Options, engine.Option{Key: kv[0], Value: kv[1]})
		}
		cfg.Engines = append(cfg.Engines, sp)
	}
	for _, s := range h.Openings {
		o, err := opening.ParseLine(s)
		if err != nil {
			return match.Config{}, err
		}
		cfg.Openings = append(cfg.Openings, o)
	}
	return cfg, nil
}

// sameMatch reports whether two headers describe the same match, shards
// aside.
func sameMatch(a, b Header) bool {
	a.Shard, b.Shard = ShardInfo{}, ShardInfo{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// Times are one game's thinking times in milliseconds, by colour.
type Times struct {
	Black []int64 `json:"black"`
	White []int64 `json:"white"`
}

// Pair is a value for each colour.
type Pair struct {
	Black int64 `json:"black"`
	White int64 `json:"white"`
}

// Game is one finished game.
type Game struct {
	Kind          string    `json:"kind"` // "game"
	Number        int       `json:"number"`
	Opponent      int       `json:"opponent"` // engine index of the opponent (the engine under test is 0)
	Swapped       bool      `json:"swapped"`  // the engine under test played White
	BlackEngine   int       `json:"black_engine"`
	WhiteEngine   int       `json:"white_engine"`
	Black         string    `json:"black"`
	White         string    `json:"white"`
	OpeningIndex  int       `json:"opening_index"`
	Opening       string    `json:"opening"` // offset format, from the board centre
	OpeningStones int       `json:"opening_stones"`
	Moves         [][2]int  `json:"moves"`  // every stone, opening first: [x, y] from the top-left, 0-based
	Result        string    `json:"result"` // "1-0", "0-1" or "1/2-1/2"
	Reason        string    `json:"reason"`
	Detail        string    `json:"detail,omitempty"`
	Failure       bool      `json:"failure,omitempty"` // lost by time-out, crash, illegal or unparseable answer, memory
	Output        []string  `json:"output,omitempty"`  // the loser's last lines after a failure
	TimesMS       Times     `json:"times_ms"`
	PeakMemory    Pair      `json:"peak_memory"`
	MemoryLimit   Pair      `json:"memory_limit"`
	Date          time.Time `json:"date"`
}

// FromDone turns a finished game into its line.
func FromDone(d match.Done) Game {
	r := d.Result
	g := Game{Kind: "game", Number: d.Job.Number, Opponent: d.Job.Opponent, Swapped: d.Job.Swapped,
		BlackEngine: d.Black, WhiteEngine: d.White, Black: r.Record.Black, White: r.Record.White,
		OpeningIndex: d.Job.Opening, OpeningStones: r.Record.Opening,
		Reason: string(r.Reason), Detail: r.Detail, Failure: r.Record.Failure, Output: r.Output,
		PeakMemory:  Pair{r.PeakMemory[0], r.PeakMemory[1]},
		MemoryLimit: Pair{r.MemoryLimit[0], r.MemoryLimit[1]},
		Date:        r.Record.Date, Moves: [][2]int{},
		TimesMS: Times{Black: []int64{}, White: []int64{}}}
	for _, m := range r.Record.Moves {
		g.Moves = append(g.Moves, [2]int{m.X, m.Y})
	}
	var offs opening.Opening
	for _, m := range r.Record.Moves[:r.Record.Opening] {
		offs = append(offs, opening.Offset{DX: m.X - r.Record.Width/2, DY: m.Y - r.Record.Height/2})
	}
	g.Opening = offs.String()
	for _, t := range r.Times[0] {
		g.TimesMS.Black = append(g.TimesMS.Black, t.Milliseconds())
	}
	for _, t := range r.Times[1] {
		g.TimesMS.White = append(g.TimesMS.White, t.Milliseconds())
	}
	switch r.Winner {
	case eval.Black:
		g.Result = "1-0"
	case eval.White:
		g.Result = "0-1"
	default:
		g.Result = "1/2-1/2"
	}
	return g
}

// Done turns the line back into a finished game of the match h describes.
func (g Game) Done(h Header) match.Done {
	res := &match.GameResult{
		Record: record.Game{Width: h.Width, Height: h.Height, Black: g.Black, White: g.White,
			Date: g.Date, Opening: g.OpeningStones, Reason: g.Reason, Failure: g.Failure},
		Reason: match.Reason(g.Reason), Detail: g.Detail, Output: g.Output,
		PeakMemory:  [2]int64{g.PeakMemory.Black, g.PeakMemory.White},
		MemoryLimit: [2]int64{g.MemoryLimit.Black, g.MemoryLimit.White},
	}
	if rule, err := eval.ParseRule(h.Rule); err == nil {
		res.Record.RuleName = rule.String()
	}
	switch g.Result {
	case "1-0":
		res.Winner, res.Record.Outcome = eval.Black, record.BlackWins
	case "0-1":
		res.Winner, res.Record.Outcome = eval.White, record.WhiteWins
	default:
		res.Winner, res.Record.Outcome = eval.Empty, record.Draw
	}
	for _, t := range g.TimesMS.Black {
		res.Times[0] = append(res.Times[0], time.Duration(t)*time.Millisecond)
	}
	for _, t := range g.TimesMS.White {
		res.Times[1] = append(res.Times[1], time.Duration(t)*time.Millisecond)
	}
	next := [2]int{}
	for i, m := range g.Moves {
		mv := record.Move{X: m[0], Y: m[1]}
		if i >= g.OpeningStones {
			c := i % 2
			if next[c] < len(res.Times[c]) {
				mv.Time = res.Times[c][next[c]]
			}
			next[c]++
		}
		res.Record.Moves = append(res.Record.Moves, mv)
	}
	return match.Done{Job: match.Job{Number: g.Number, Opponent: g.Opponent, Opening: g.OpeningIndex, Swapped: g.Swapped},
		Black: g.BlackEngine, White: g.WhiteEngine, Result: res}
}

// Writer writes a results file: the header at once, then a line a game.
type Writer struct {
	w io.Writer
}

// NewWriter writes the header to w.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	wr := &Writer{w: w}
	return wr, wr.line(h)
}

// Add writes one game.
func (wr *Writer) Add(d match.Done) error { return wr.line(FromDone(d)) }

func (wr *Writer) line(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = wr.w.Write(append(b, '\n'))
	return err
}

// File is one results file read back.
type File struct {
	Name   string
	Header Header
	Games  []Game
	// Truncated is set when the last line was cut short (a shard ended
	// while writing it); that game is left out.
	Truncated bool
}

// Read reads a results file.
func Read(name string, r io.Reader) (File, error) {
	f := File{Name: name}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var kind struct {
				Kind string `json:"kind"`
			}
			if jerr := json.Unmarshal(line, &kind); jerr != nil {
				if err == io.EOF && n > 1 {
					f.Truncated = true
					break
				}
				return f, fmt.Errorf("%s:%d: %v", name, n, jerr)
			}
			switch {
			case n == 1 && kind.Kind == "match":
				if jerr := json.Unmarshal(line, &f.Header); jerr != nil {
					return f, fmt.Errorf("%s:%d: %v", name, n, jerr)
				}
				if f.Header.Format != Format {
					return f, fmt.Errorf("%s: format %d, this wuzi-match reads %d", name, f.Header.Format, Format)
				}
			case n > 1 && kind.Kind == "game":
				var g Game
				if jerr := json.Unmarshal(line, &g); jerr != nil {
					return f, fmt.Errorf("%s:%d: %v", name, n, jerr)
				}
				f.Games = append(f.Games, g)
			default:
				return f, fmt.Errorf("%s:%d: a %q line where a %s is due", name, n, kind.Kind, map[bool]string{true: "match header", false: "game"}[n == 1])
			}
		} else if n == 1 && err == io.EOF {
			return f, fmt.Errorf("%s: empty, not a results file", name)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// ReadFile reads a results file from disk.
func ReadFile(path string) (File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return File{}, err
	}
	defer fh.Close()
	return Read(path, fh)
}

// Merged is a match put together from results files.
type Merged struct {
	Header Header // the match, shard cleared
	// Games are the counted games in schedule order: all of them, or up to
	// the one where the SPRT was decided.
	Games      []Game
	Missing    []int // scheduled game numbers no file holds
	Duplicates int   // games found in more than one file (the first kept)
	Uncounted  int   // games after the SPRT's decision
	Summary    *match.Summary
}

// Merge puts results files of one match (its shards, or a whole run) into
// one summary: every game once, counted in schedule order.
func Merge(files []File) (*Merged, error) {
	if len(files) == 0 {
		return nil, errors.New("no results file to merge")
	}
	h := files[0].Header
	for _, f := range files[1:] {
		if !sameMatch(h, f.Header) {
			return nil, fmt.Errorf("%s is from another match than %s (engines, settings, seed or openings differ)", f.Name, files[0].Name)
		}
	}
	h.Shard = ShardInfo{}
	byNumber := map[int]Game{}
	m := &Merged{Header: h}
	for _, f := range files {
		for _, g := range f.Games {
			if g.Number < 1 || g.Number > h.Total {
				return nil, fmt.Errorf("%s: game number %d outside the schedule of %d", f.Name, g.Number, h.Total)
			}
			if _, ok := byNumber[g.Number]; ok {
				m.Duplicates++
				continue
			}
			byNumber[g.Number] = g
		}
	}
	cfg, err := h.Config()
	if err != nil {
		return nil, err
	}
	sum := match.NewSummary(h.Names, h.Total)
	sum.Openings, sum.SkippedOpenings = h.OpeningsIn, h.Skipped
	sum.Random, sum.Seed = h.Random, h.Seed
	for i, sp := range cfg.Engines {
		es, err := cfg.Settings.ForEngine(sp)
		if err != nil {
			return nil, err
		}
		sum.MemoryLimits[i] = es.MaxMemory
	}
	if len(cfg.Engines) == 1 && len(sum.MemoryLimits) == 2 {
		sum.MemoryLimits[1] = sum.MemoryLimits[0]
	}
	numbers := make([]int, 0, len(byNumber))
	for n := range byNumber {
		numbers = append(numbers, n)
	}
	slices.Sort(numbers)
	for n := 1; n <= h.Total; n++ {
		if _, ok := byNumber[n]; !ok {
			m.Missing = append(m.Missing, n)
		}
	}
	for i, n := range numbers {
		g := byNumber[n]
		d := g.Done(h)
		if g.BlackEngine < 0 || g.BlackEngine >= len(h.Names) || g.WhiteEngine < 0 || g.WhiteEngine >= len(h.Names) ||
			g.Opponent < 1 || g.Opponent >= len(h.Names) {
			return nil, fmt.Errorf("game %d: engine indexes out of range", n)
		}
		sum.Add(d)
		m.Games = append(m.Games, g)
		if h.SPRT != nil && len(sum.Pairs) == 1 {
			if sum.SPRT = h.SPRT.Decide(sum.Pairs[0].Result); sum.SPRT != elo.Continue {
				sum.Stopped = "SPRT: " + sum.SPRT.String()
				m.Uncounted = len(numbers) - i - 1
				break
			}
		}
	}
	if sum.Stopped != "" && len(m.Games) > 0 {
		// Games after the decision are not needed.
		last := m.Games[len(m.Games)-1].Number
		m.Missing = slices.DeleteFunc(m.Missing, func(n int) bool { return n > last })
	}
	if sum.Stopped == "" && len(m.Missing) > 0 {
		sum.Stopped = fmt.Sprintf("%d games missing", len(m.Missing))
	}
	m.Summary = sum
	return m, nil
}
