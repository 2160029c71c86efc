// Package webboard is the browser board of cmd/wuzi-board: an HTTP server
// on the local machine that serves one embedded page and plays games on it
// between humans and Piskvork-protocol engines.
//
// Engines run through package match/engine, one process per engine and
// game, and every move (a human's too) is judged by match's referee, so
// illegal moves, renju fouls, time-outs and crashes count as they do in
// wuzi-match. The page can only pick engines from the list the server was
// given at start-up; nothing it sends names a command.
//
// The HTTP API, all JSON:
//
//	GET  /api/config                 engines, rules, limits
//	POST /api/games                  a new game (Settings as JSON) → its snapshot
//	GET  /api/games/{id}?v=N         the game's snapshot once its version is past N (long poll)
//	POST /api/games/{id}/{action}    move, undo, redo, stop, pause, resume, hint, swap2, setup, load, close
//	GET  /api/games/{id}/game.psq    the game as PSQ; game.sgf as SGF; position.txt as text
package webboard

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"wuzi/eval"
	"wuzi/match/engine"
	"wuzi/match/record"
)

//go:embed static
var staticFiles embed.FS

// Config is what the server may do.
type Config struct {
	// Engines are the engines a page may choose, by index; the first is
	// the default. There must be at least one.
	Engines    []engine.Spec
	MaxGames   int           // games open at once; 0 means 8
	MaxEngines int           // engine processes at once, over all games; 0 means 4
	Tolerance  time.Duration // added to every time limit before a move is a time-out; 0 means 1 s
	// MaxMemory is sent to every engine as INFO max_memory and enforced
	// as wuzi-match does (USS of the process tree while it thinks, Linux
	// only); 0 means 350 MiB, Gomocup's limit, which engines are tuned
	// for. MaxEngines × MaxMemory bounds what the engines may use.
	MaxMemory int64
	// IdleTimeout closes a game no page has asked about for this long
	// (the page polls every few seconds while open); 0 means 45 s.
	IdleTimeout time.Duration
	// AnyHost accepts requests whatever their Host header says. Without
	// it only loopback names are accepted, which keeps other web sites
	// from reaching the board through DNS rebinding.
	AnyHost bool
}

// Server serves the board. Create it with New; it is an http.Handler.
type Server struct {
	cfg    Config
	mux    *http.ServeMux
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	games   map[string]*game
	engines int // running engine processes
	closed  bool
}

// Stats counts what a server holds.
type Stats struct {
	Games   int `json:"games"`
	Engines int `json:"engines"`
}

// longPoll is the longest a snapshot request waits for a change.
const longPoll = 20 * time.Second

// maxBody bounds a request body (a loaded record is the largest).
const maxBody = 1 << 20

// New returns a server for cfg.
func New(cfg Config) (*Server, error) {
	if len(cfg.Engines) == 0 {
		return nil, errors.New("webboard: no engines")
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 8
	}
	if cfg.MaxEngines <= 0 {
		cfg.MaxEngines = 4
	}
	if cfg.Tolerance <= 0 {
		cfg.Tolerance = time.Second
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = 350 << 20
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 45 * time.Second
	}
	s := &Server{cfg: cfg, games: map[string]*game{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.mux = http.NewServeMux()
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/config", s.handleConfig)
	s.mux.HandleFunc("GET /api/stats", s.handleStats)
	s.mux.HandleFunc("POST /api/games", s.handleNew)
	s.mux.HandleFunc("GET /api/games/{id}", s.handleState)
	s.mux.HandleFunc("GET /api/games/{id}/{file}", s.handleFile)
	s.mux.HandleFunc("POST /api/games/{id}/{action}", s.handleAction)
	s.wg.Add(1)
	go s.reap()
	return s, nil
}

// ServeHTTP checks where a request comes from, then serves it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AnyHost && !loopbackHost(r.Host) {
		httpError(w, http.StatusForbidden, fmt.Sprintf("host %q is not this machine's loopback address", r.Host))
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" && o != "http://"+r.Host {
		httpError(w, http.StatusForbidden, fmt.Sprintf("requests from %q are not accepted", o))
		return
	}
	if r.Method == http.MethodPost {
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if ct != "application/json" {
			httpError(w, http.StatusUnsupportedMediaType, "POST bodies must be application/json")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Close ends every game and its engines and waits for them.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}

// Stats reports the games open and engine processes running now.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Games: len(s.games), Engines: s.engines}
}

func (s *Server) acquireEngine() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.engines >= s.cfg.MaxEngines {
		return false
	}
	s.engines++
	return true
}

func (s *Server) releaseEngine() {
	s.mu.Lock()
	s.engines--
	s.mu.Unlock()
}

// newSide is a human (e < 0) or the e-th engine.
func (s *Server) newSide(e int) *side {
	if e < 0 || e >= len(s.cfg.Engines) {
		return &side{human: true, known: -1}
	}
	return &side{spec: s.cfg.Engines[e], known: -1}
}

// reap closes games no page has asked about for IdleTimeout.
func (s *Server) reap() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.IdleTimeout / 4)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		var idle []*game
		for _, g := range s.games {
			g.mu.Lock()
			if time.Since(g.lastSeen) > s.cfg.IdleTimeout {
				idle = append(idle, g)
			}
			g.mu.Unlock()
		}
		s.mu.Unlock()
		for _, g := range idle {
			s.closeGame(g)
		}
	}
}

// closeGame ends a game's worker (and so its engines) and forgets it.
func (s *Server) closeGame(g *game) {
	c := &command{kind: "close", reply: make(chan error, 1)}
	select {
	case g.cmds <- c:
	case <-g.done:
	}
	<-g.done
	s.mu.Lock()
	delete(s.games, g.id)
	s.mu.Unlock()
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// decode reads a JSON body strictly.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fmt.Errorf("the body is over %d bytes", maxBody)
		}
		return fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return errors.New("bad JSON: more than one value")
	}
	return nil
}

// ConfigView is what GET /api/config answers.
type ConfigView struct {
	Engines    []string   `json:"engines"`
	Rules      []RuleView `json:"rules"`
	Sizes      []int      `json:"sizes"`
	MinSize    int        `json:"minSize"`
	MaxSize    int        `json:"maxSize"`
	MaxGames   int        `json:"maxGames"`
	MaxEngines int        `json:"maxEngines"`
}

// RuleView is one rule a page may choose.
type RuleView struct {
	Num  int    `json:"num"`
	Name string `json:"name"`
}

func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	c := ConfigView{Sizes: []int{15, 20}, MinSize: eval.MinSize, MaxSize: eval.MaxSize, MaxGames: s.cfg.MaxGames, MaxEngines: s.cfg.MaxEngines}
	for _, e := range s.cfg.Engines {
		c.Engines = append(c.Engines, e.Name)
	}
	for _, r := range []eval.Rule{eval.Freestyle, eval.Standard, eval.Renju, eval.CaroFree, eval.CaroExact} {
		c.Rules = append(c.Rules, RuleView{int(r), r.String()})
	}
	writeJSON(w, c)
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) { writeJSON(w, s.Stats()) }

// NewGameRequest is the body of POST /api/games.
type NewGameRequest struct {
	Width   int   `json:"width"`
	Height  int   `json:"height"` // 0: square
	Rule    int   `json:"rule"`
	TurnMS  int64 `json:"turnMs"`
	MatchMS int64 `json:"matchMs"`
	Black   int   `json:"black"` // -1 human, else an engine index
	White   int   `json:"white"`
	Analyst int   `json:"analyst"` // the engine for hints in a game of humans
	Swap2   bool  `json:"swap2"`
}

// settings checks a new game's request.
func (s *Server) settings(q NewGameRequest) (Settings, error) {
	if q.Height == 0 {
		q.Height = q.Width
	}
	if q.Width < eval.MinSize || q.Height < eval.MinSize || q.Width > eval.MaxSize || q.Height > eval.MaxSize {
		return Settings{}, fmt.Errorf("board %dx%d: sides must be %d to %d", q.Width, q.Height, eval.MinSize, eval.MaxSize)
	}
	rule := eval.Rule(q.Rule)
	if q.Rule < 0 || q.Rule > 255 || !rule.Valid() {
		return Settings{}, fmt.Errorf("rule %d is not one of 0 (freestyle), 1 (standard), 4 (renju), 8 (caro), 9 (caro, exact)", q.Rule)
	}
	if q.TurnMS < 100 || q.TurnMS > 600_000 {
		return Settings{}, fmt.Errorf("time per move %d ms: must be 100 ms to 10 minutes", q.TurnMS)
	}
	if q.MatchMS < 0 || q.MatchMS > 24*3600_000 {
		return Settings{}, fmt.Errorf("time per game %d ms: must be 0 (no limit) to 24 hours", q.MatchMS)
	}
	n := len(s.cfg.Engines)
	for _, e := range []struct {
		who string
		i   int
	}{{"black", q.Black}, {"white", q.White}, {"analyst", q.Analyst}} {
		if e.i < -1 || e.i >= n || (e.who == "analyst" && e.i < 0) {
			return Settings{}, fmt.Errorf("%s: engine %d is not one of the %d engines this server was started with", e.who, e.i, n)
		}
	}
	return Settings{
		Width: q.Width, Height: q.Height, Rule: rule,
		TurnTime: time.Duration(q.TurnMS) * time.Millisecond, MatchTime: time.Duration(q.MatchMS) * time.Millisecond,
		Black: q.Black, White: q.White, Analyst: q.Analyst, Swap2: q.Swap2,
	}, nil
}

func (s *Server) handleNew(w http.ResponseWriter, r *http.Request) {
	var q NewGameRequest
	if err := decode(r, &q); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	set, err := s.settings(q)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	var idb [12]byte
	_, _ = rand.Read(idb[:])
	id := hex.EncodeToString(idb[:])
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		httpError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	if len(s.games) >= s.cfg.MaxGames {
		s.mu.Unlock()
		httpError(w, http.StatusTooManyRequests, fmt.Sprintf("%d games are open, the most this server allows (--max-games); close a page or wait a minute", s.cfg.MaxGames))
		return
	}
	g, err := newGame(s, id, set)
	if err != nil {
		s.mu.Unlock()
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.games[id] = g
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		g.run(s.ctx)
		s.mu.Lock()
		delete(s.games, g.id)
		s.mu.Unlock()
	}()
	writeJSON(w, g.snapshot(0, 0, nil))
}

func (s *Server) game(w http.ResponseWriter, r *http.Request) *game {
	s.mu.Lock()
	g := s.games[r.PathValue("id")]
	s.mu.Unlock()
	if g == nil {
		httpError(w, http.StatusNotFound, "no such game (it was closed, or the server restarted); start a new one")
	}
	return g
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	g := s.game(w, r)
	if g == nil {
		return
	}
	var v uint64
	wait := time.Duration(0)
	if q := r.URL.Query().Get("v"); q != "" {
		n, err := strconv.ParseUint(q, 10, 64)
		if err != nil {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("v=%q is not a version number", clip(q)))
			return
		}
		v, wait = n, longPoll
	}
	writeJSON(w, g.snapshot(v, wait, r.Context().Done()))
}

// ActionRequest is the body of POST /api/games/{id}/{action}; each action
// reads the fields it needs.
type ActionRequest struct {
	X      *int     `json:"x,omitempty"`
	Y      *int     `json:"y,omitempty"`
	N      int      `json:"n,omitempty"`
	Choice string   `json:"choice,omitempty"`
	Moves  [][2]int `json:"moves,omitempty"`
	Format string   `json:"format,omitempty"`
	Text   string   `json:"text,omitempty"`
}

func (s *Server) handleAction(w http.ResponseWriter, r *http.Request) {
	g := s.game(w, r)
	if g == nil {
		return
	}
	var q ActionRequest
	if err := decode(r, &q); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	c := &command{kind: r.PathValue("action"), reply: make(chan error, 1)}
	switch c.kind {
	case "move":
		if q.X == nil || q.Y == nil {
			httpError(w, http.StatusBadRequest, "move: give x and y")
			return
		}
		c.x, c.y = *q.X, *q.Y
	case "hint":
		c.n = q.N
		if c.n == 0 {
			c.n = 1
		}
	case "swap2":
		c.choice = q.Choice
	case "setup":
		if len(q.Moves) > maxRecordMoves {
			httpError(w, http.StatusBadRequest, fmt.Sprintf("setup: more than %d stones", maxRecordMoves))
			return
		}
		for _, m := range q.Moves {
			c.moves = append(c.moves, record.Move{X: m[0], Y: m[1]})
		}
	case "load":
		var l *Loaded
		var err error
		switch strings.ToLower(q.Format) {
		case "psq":
			l, err = ParsePSQ(q.Text)
		case "sgf":
			l, err = ParseSGF(q.Text)
		default:
			err = fmt.Errorf("load: format %q: want psq or sgf", clip(q.Format))
		}
		if err != nil {
			httpError(w, http.StatusBadRequest, err.Error())
			return
		}
		c.moves, c.w, c.h, c.rule = l.Moves, l.Width, l.Height, l.Rule
	case "undo", "redo", "stop", "pause", "resume", "close":
	default:
		httpError(w, http.StatusNotFound, fmt.Sprintf("no action %q (want move, undo, redo, stop, pause, resume, hint, swap2, setup, load, close)", clip(c.kind)))
		return
	}
	if c.kind == "close" {
		s.closeGame(g)
		writeJSON(w, map[string]bool{"closed": true})
		return
	}
	select {
	case g.cmds <- c:
	case <-g.done:
		httpError(w, http.StatusGone, "the game is closed")
		return
	case <-time.After(10 * time.Second):
		httpError(w, http.StatusServiceUnavailable, "the game is busy; try again")
		return
	}
	var err error
	select {
	case err = <-c.reply:
	case <-g.done:
	}
	if err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			httpError(w, ue.status, ue.msg)
			return
		}
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	writeJSON(w, g.snapshot(0, 0, nil))
}

// gameRecord is the game as match/record writes it.
func (s *Snapshot) gameRecord() *record.Game {
	g := &record.Game{
		Width: s.Width, Height: s.Height, RuleName: s.Rule,
		Black: s.Players[0].Name, White: s.Players[1].Name,
		Date: time.Now(), Opening: s.Opening, Reason: s.Reason,
	}
	for i, m := range s.Moves {
		g.Moves = append(g.Moves, record.Move{X: m[0], Y: m[1], Time: time.Duration(s.TimesMS[i]) * time.Millisecond})
	}
	switch s.Winner {
	case "black":
		g.Outcome = record.BlackWins
	case "white":
		g.Outcome = record.WhiteWins
	}
	switch s.Reason {
	case "time-out", "crash", "illegal", "unparseable", "memory":
		g.Failure = true
	}
	return g
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	g := s.game(w, r)
	if g == nil {
		return
	}
	snap := g.snapshot(0, 0, nil)
	rec := snap.gameRecord()
	var write func(io.Writer, *record.Game) error
	var ctype string
	switch name := r.PathValue("file"); name {
	case "game.psq":
		write, ctype = record.WritePSQ, "text/plain; charset=utf-8"
	case "game.sgf":
		write, ctype = record.WriteSGF, "application/x-go-sgf; charset=utf-8"
	case "position.txt":
		write = func(w io.Writer, g *record.Game) error {
			side := "Black (X)"
			if snap.ToMove == "white" {
				side = "White (O)"
			}
			_, err := fmt.Fprintf(w, "%s %dx%d, %d stones, %s to move\n%s", g.RuleName, g.Width, g.Height, len(g.Moves), side, record.Text(g))
			return err
		}
		ctype = "text/plain; charset=utf-8"
	default:
		httpError(w, http.StatusNotFound, fmt.Sprintf("no file %q (want game.psq, game.sgf, position.txt)", clip(name)))
		return
	}
	w.Header().Set("Content-Type", ctype)
	if r.URL.Query().Has("download") {
		w.Header().Set("Content-Disposition", "attachment; filename=\"wuzi-"+snap.ID[:8]+"-"+r.PathValue("file")+"\"")
	}
	_ = write(w, rec)
}
