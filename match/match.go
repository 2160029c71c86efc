// Package match plays and referees games between Piskvork-protocol engines:
// a Referee judges moves with package eval, PlayGame runs one game between
// two engine processes under Gomocup-like time control, and Run schedules a
// whole match or gauntlet over several games in parallel, with an optional
// SPRT that stops the match once it is decided.
//
// Subpackages do one job each: engine (the child process and its lines),
// opening (the offset format and the built-in set), record (PSQ, SGF and
// text boards) and elo (score, Elo, error margin, SPRT).
package match

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"wuzi/eval"
	"wuzi/match/elo"
	"wuzi/match/engine"
	"wuzi/match/opening"
)

// Config describes a match.
type Config struct {
	Settings Settings
	// Engines[0] is the engine under test; every other engine is an
	// opponent it meets (several make a gauntlet). A single engine plays
	// itself.
	Engines  []engine.Spec
	Openings []opening.Opening // empty: the built-in set, or openings drawn from Seed when Random
	Games    int               // games per pairing; openings come in colour-swapped pairs
	// Random draws the openings from Seed: fresh three-stone openings
	// (opening.Generate) when Openings is empty and the board is at least
	// 11×11, else the openings shuffled. Without it they go in order.
	Random   bool
	Seed     uint64
	Parallel int       // games played at once; at least 1
	SPRT     *elo.SPRT // stop when decided; only with a single opponent, and not in a shard
	// Shard, when its Count is above 1, plays only that shard's games of
	// the schedule (numbered as in the whole match); the shards' results
	// are merged afterwards, where an SPRT is applied in schedule order.
	Shard Shard
}

// Shard is one part of a match split over processes or machines: game k
// of the schedule (1-based) belongs to shard (k-1) mod Count, so every
// shard gets an even share of openings, colours and opponents.
type Shard struct {
	Index int // from 0, as JOB_COMPLETION_INDEX counts
	Count int // 0 or 1: the whole match
}

// ParseShard reads "I/N" with 0 <= I < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 0/4", s)
	}
	sh := Shard{Index: i, Count: n}
	return sh, sh.Validate()
}

// Validate checks that the index lies in 0..Count-1.
func (sh Shard) Validate() error {
	if sh.Count < 0 || sh.Index < 0 || (sh.Count > 0 && sh.Index >= sh.Count) || (sh.Count == 0 && sh.Index != 0) {
		return fmt.Errorf("shard %d/%d: the index counts from 0 to %d", sh.Index, sh.Count, max(sh.Count-1, 0))
	}
	return nil
}

// Has reports whether game number (1-based) belongs to the shard.
func (sh Shard) Has(number int) bool {
	return sh.Count <= 1 || (number-1)%sh.Count == sh.Index
}

// String writes the shard as ParseShard reads it; "" for the whole match.
func (sh Shard) String() string {
	if sh.Count <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.Index, sh.Count)
}

// Job is one game of the schedule.
type Job struct {
	Number   int  // 1-based position in the schedule
	Opponent int  // index into Config.Engines (≥ 1)
	Opening  int  // index into the openings
	Swapped  bool // the engine under test plays White
}

// Done is a finished game with its place in the schedule.
type Done struct {
	Job    Job
	Black  int // engine indexes
	White  int
	Result *GameResult
}

// Tally is the record of the engine under test against one opponent.
type Tally struct {
	Opponent string
	elo.Result
	// AsBlack and AsWhite split the record by the colour the engine under
	// test played: in gomoku the first player's edge is large, so the two
	// halves of a colour-swapped match say more than their sum.
	AsBlack, AsWhite          elo.Result
	WinsBy, LossesBy, DrawsBy map[Reason]int
}

// Summary is the state of a match: after every game (for progress lines)
// and at the end.
type Summary struct {
	Names     []string // engine names, made unique
	Total     int      // games scheduled
	Done      int      // games finished and counted
	Pairs     []*Tally // one per opponent, Engines[1:] in order
	MoveTimes [][]time.Duration
	// PeakMemory is each engine's highest memory sample over all its
	// games (USS of the process tree while thinking, bytes; 0 where
	// memory is not measured).
	PeakMemory []int64
	Errors     []error // games that could not be set up (bad openings)
	Openings   int     // openings in use
	// SkippedOpenings counts openings left out because they do not fit
	// the board.
	SkippedOpenings int
	SPRT            elo.Decision
	Stopped         string // why the match ended early, if it did
	// MemoryLimits is each engine's own memory limit in bytes (its
	// max_memory option, or the match's); 0 = no limit.
	MemoryLimits []int64
	Random       bool   // the openings were drawn from Seed
	Seed         uint64 // replays the same openings in the same order
	Shard        Shard  // the part of the schedule played; zero: all of it
}

// NewSummary returns an empty summary of a match between the named
// engines (Names[0] the engine under test) with total games scheduled.
func NewSummary(names []string, total int) *Summary {
	s := &Summary{Names: names, Total: total, MoveTimes: make([][]time.Duration, len(names)),
		PeakMemory: make([]int64, len(names)), MemoryLimits: make([]int64, len(names))}
	for _, n := range names[1:] {
		s.Pairs = append(s.Pairs, &Tally{Opponent: n,
			WinsBy: map[Reason]int{}, LossesBy: map[Reason]int{}, DrawsBy: map[Reason]int{}})
	}
	return s
}

// Overall is the engine under test's record over all opponents.
func (s *Summary) Overall() elo.Result {
	var r elo.Result
	for _, t := range s.Pairs {
		r.Wins += t.Wins
		r.Losses += t.Losses
		r.Draws += t.Draws
	}
	return r
}

// MoveTime returns engine i's median and worst move time.
func (s *Summary) MoveTime(i int) (median, worst time.Duration) {
	t := slices.Clone(s.MoveTimes[i])
	if len(t) == 0 {
		return 0, 0
	}
	slices.Sort(t)
	n := len(t)
	median = t[n/2]
	if n%2 == 0 {
		median = (t[n/2-1] + t[n/2]) / 2
	}
	return median, t[n-1]
}

// uniqueNames gives engines with the same name a "#2", "#3" suffix.
func uniqueNames(specs []engine.Spec) []string {
	names := make([]string, len(specs))
	count := map[string]int{}
	for i, s := range specs {
		count[s.Name]++
		names[i] = s.Name
		if count[s.Name] > 1 {
			names[i] = fmt.Sprintf("%s#%d", s.Name, count[s.Name])
		}
	}
	return names
}

// OpeningSet returns the openings a match draws from: cfg.Openings, or
// without them openings generated from the seed (Random on a board of
// 11×11 or more, one per game pair) or the built-in set.
func (cfg Config) OpeningSet() []opening.Opening {
	switch {
	case len(cfg.Openings) > 0:
		return cfg.Openings
	case cfg.Random && min(cfg.Settings.Width, cfg.Settings.Height) >= 11:
		return opening.Generate(cfg.Seed, max((cfg.Games+1)/2, 1))
	}
	return opening.Default()
}

// Placed returns the openings of the match placed on its board, in the
// order Schedule's indexes count them, and how many were left out because
// they do not fit the board.
func (cfg Config) Placed() (placed [][]opening.Point, skipped int) {
	return placeAll(cfg.OpeningSet(), cfg.Settings.Width, cfg.Settings.Height)
}

// placeAll places the openings that fit the board (files made for 20x20
// often hold a few too wide for 15x15) and counts the others.
func placeAll(openings []opening.Opening, w, h int) (placed [][]opening.Point, skipped int) {
	for _, o := range openings {
		p, err := o.Place(w, h)
		if err != nil {
			skipped++
			continue
		}
		placed = append(placed, p)
	}
	return placed, skipped
}

// Names returns the engines' display names as a match shows them: an
// engine playing itself (a single engine) is named twice, and repeated
// names get a "#2", "#3" suffix.
func Names(engines []engine.Spec) []string {
	if len(engines) == 1 {
		engines = []engine.Spec{engines[0], engines[0]}
	}
	return uniqueNames(engines)
}

// Schedule lists the games of a match: for every pair of games, the next
// opening, first with the engine under test as Black, then as White; the
// opponents take turns game pair by game pair.
func Schedule(cfg Config, openings int) []Job {
	opponents := len(cfg.Engines) - 1
	pairs := (cfg.Games + 1) / 2
	order := opening.Order(openings, pairs, cfg.Random, cfg.Seed)
	var jobs []Job
	for k := 0; k < cfg.Games; k++ {
		for o := 1; o <= opponents; o++ {
			jobs = append(jobs, Job{Number: len(jobs) + 1, Opponent: o, Opening: order[k/2], Swapped: k%2 == 1})
		}
	}
	return jobs
}

// Run plays the match. After every counted game it calls onGame (from one
// goroutine at a time, in finishing order) with the game and the summary so
// far; onGame may write files and print, but must not keep the summary.
// Cancelling ctx ends the running games' engines and returns what finished.
func Run(ctx context.Context, cfg Config, onGame func(Done, *Summary)) (*Summary, error) {
	if err := cfg.Settings.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.Engines) == 0 {
		return nil, fmt.Errorf("no engine to play")
	}
	if len(cfg.Engines) == 1 {
		cfg.Engines = append(cfg.Engines, cfg.Engines[0])
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("games must be at least 1")
	}
	if cfg.SPRT != nil && len(cfg.Engines) != 2 {
		return nil, fmt.Errorf("an SPRT needs exactly one opponent")
	}
	if err := cfg.Shard.Validate(); err != nil {
		return nil, err
	}
	limits := make([]int64, len(cfg.Engines))
	for i, sp := range cfg.Engines {
		es, err := cfg.Settings.ForEngine(sp)
		if err != nil {
			return nil, err
		}
		limits[i] = es.MemoryLimit
	}
	openings := cfg.OpeningSet()
	placed, skipped := placeAll(openings, cfg.Settings.Width, cfg.Settings.Height)
	if len(placed) == 0 {
		return nil, fmt.Errorf("no opening fits a %dx%d board", cfg.Settings.Width, cfg.Settings.Height)
	}
	names := uniqueNames(cfg.Engines)
	specs := slices.Clone(cfg.Engines)
	for i := range specs {
		specs[i].Name = names[i]
	}
	var jobs []Job
	for _, j := range Schedule(cfg, len(placed)) {
		if cfg.Shard.Has(j.Number) {
			jobs = append(jobs, j)
		}
	}
	sum := NewSummary(names, len(jobs))
	sum.Openings, sum.SkippedOpenings = len(placed), skipped
	sum.MemoryLimits = limits
	sum.Random, sum.Seed, sum.Shard = cfg.Random, cfg.Seed, cfg.Shard
	sprt := cfg.SPRT
	if cfg.Shard.Count > 1 {
		sprt = nil // one shard cannot decide; the merge does
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan Job)
	results := make(chan Done)
	type setupError struct{ err error }
	failures := make(chan setupError)
	var wg sync.WaitGroup
	for range max(cfg.Parallel, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for job := range queue {
				b, w := 0, job.Opponent
				if job.Swapped {
					b, w = w, 0
				}
				res, err := PlayGame(ctx, cfg.Settings, specs[b], specs[w], placed[job.Opening])
				if err != nil {
					failures <- setupError{fmt.Errorf("game %d: %w", job.Number, err)}
					continue
				}
				results <- Done{Job: job, Black: b, White: w, Result: res}
			}
		}()
	}
	go func() {
		defer close(queue)
		for _, j := range jobs {
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
		close(failures)
	}()

	for results != nil || failures != nil {
		select {
		case f, ok := <-failures:
			if !ok {
				failures = nil
				continue
			}
			sum.Errors = append(sum.Errors, f.err)
		case d, ok := <-results:
			if !ok {
				results = nil
				continue
			}
			if d.Result.Reason == ReasonInterrupted {
				continue
			}
			sum.Add(d)
			if sprt != nil && sum.SPRT == elo.Continue {
				if sum.SPRT = sprt.Decide(sum.Pairs[0].Result); sum.SPRT != elo.Continue {
					sum.Stopped = "SPRT: " + sum.SPRT.String()
					cancel()
				}
			}
			if onGame != nil {
				onGame(d, sum)
			}
		}
	}
	if sum.Stopped == "" && ctx.Err() != nil {
		sum.Stopped = "interrupted"
	}
	return sum, nil
}

// Add counts a finished game in the summary.
func (s *Summary) Add(d Done) {
	s.Done++
	r := d.Result
	t := s.Pairs[d.Job.Opponent-1]
	s.MoveTimes[d.Black] = append(s.MoveTimes[d.Black], r.Times[0]...)
	s.MoveTimes[d.White] = append(s.MoveTimes[d.White], r.Times[1]...)
	s.PeakMemory[d.Black] = max(s.PeakMemory[d.Black], r.PeakMemory[0])
	s.PeakMemory[d.White] = max(s.PeakMemory[d.White], r.PeakMemory[1])
	testIsBlack := d.Black == 0
	byColor := &t.AsWhite
	if testIsBlack {
		byColor = &t.AsBlack
	}
	switch {
	case r.Winner == eval.Empty:
		t.Draws++
		byColor.Draws++
		t.DrawsBy[r.Reason]++
	case (r.Winner == eval.Black) == testIsBlack:
		t.Wins++
		byColor.Wins++
		t.WinsBy[r.Reason]++
	default:
		t.Losses++
		byColor.Losses++
		t.LossesBy[r.Reason]++
	}
}
