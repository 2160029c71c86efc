// Command wuzi-board is a Gomoku/Renju board in the browser: it serves one
// page on the local machine where humans and Piskvork-protocol engines play
// each other, and shows what the engines think.
//
//	wuzi-board                          serve on 127.0.0.1:8015 with the built-in Wuzi engine
//	wuzi-board -e /path/to/pbrain-x     offer another engine too (repeatable)
//	wuzi-board engine                   run the built-in engine on stdin/stdout (what the board starts)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"wuzi/match/engine"
	"wuzi/webboard"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == webboard.EngineArg {
		// The built-in engine: nothing but protocol lines on stdout.
		log.SetOutput(io.Discard)
		if err := webboard.ServeEngine(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "wuzi-board engine: %v\n", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("wuzi-board", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8015", "address to listen on (a loopback address unless you mean to share the board)")
	var specs []string
	fs.StringArrayVarP(&specs, "engine", "e", nil, "another engine the page may pick: a pbrain command, or cmd=PROGRAM ARGS,dir=DIR,name=NAME,option=KEY=VALUE (repeatable)")
	noWuzi := fs.Bool("no-wuzi", false, "do not offer the built-in Wuzi engine")
	maxGames := fs.Int("max-games", 8, "games open at once")
	maxEngines := fs.Int("max-engines", 4, "engine processes running at once, over all games (an engine game needs one, engine against engine two)")
	maxMemory := fs.Int("max-memory", 350, "memory per engine in MiB, as Gomocup counts it (sent as INFO max_memory; more loses by memory)")
	tolerance := fs.Duration("tolerance", time.Second, "time added to every limit before a move is a time-out")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `wuzi-board: a Gomoku/Renju board in the browser, against Wuzi or any pbrain engine.

Usage:
  wuzi-board [flags]       serve the board; open the address it prints
  wuzi-board engine        run the built-in Wuzi engine on stdin/stdout (the board starts itself this way)

Flags:
%s`, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "wuzi-board: %v (try --help)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wuzi-board: unexpected argument %q (try --help)\n", fs.Arg(0))
		return 2
	}
	cfg := webboard.Config{
		MaxGames: *maxGames, MaxEngines: *maxEngines,
		MaxMemory: int64(*maxMemory) << 20, Tolerance: *tolerance,
	}
	if !*noWuzi {
		sp, err := webboard.BuiltinSpec()
		if err != nil {
			fmt.Fprintf(stderr, "wuzi-board: the built-in engine: %v\n", err)
			return 1
		}
		cfg.Engines = append(cfg.Engines, sp)
	}
	for _, s := range specs {
		sp, err := engine.ParseSpec(s)
		if err != nil {
			fmt.Fprintf(stderr, "wuzi-board: %v\n", err)
			return 2
		}
		cfg.Engines = append(cfg.Engines, sp)
	}
	for i, e := range cfg.Engines {
		if i == 0 && !*noWuzi {
			continue // the built-in engine is this executable
		}
		// A missing program is shown on the page when a game starts it;
		// say so here too, where the command was typed.
		path := e.Command
		if e.Dir != "" && !filepath.IsAbs(path) && strings.ContainsRune(path, filepath.Separator) {
			path = filepath.Join(e.Dir, path)
		}
		if _, err := exec.LookPath(path); err != nil {
			fmt.Fprintf(stderr, "wuzi-board: warning: engine %d (%s): %v\n", i+1, e.Name, err)
		}
	}
	if len(cfg.Engines) == 0 {
		fmt.Fprintln(stderr, "wuzi-board: no engine: give one with -e or drop --no-wuzi")
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "wuzi-board: %v\n", err)
		return 1
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	ip := net.ParseIP(host)
	cfg.AnyHost = ip == nil || !ip.IsLoopback()
	srv, err := webboard.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "wuzi-board: %v\n", err)
		return 1
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "wuzi-board: open http://%s/ in a browser (Ctrl-C to stop)\n", ln.Addr())
	for i, e := range cfg.Engines {
		fmt.Fprintf(stdout, "  engine %d: %s (%s)\n", i+1, e.Name, e.Command)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "wuzi-board: %v\n", err)
		srv.Close()
		return 1
	case <-ctx.Done():
	}
	fmt.Fprintln(stdout, "wuzi-board: stopping; ending the engines")
	srv.Close() // ends the games, their engines and the pages' long polls
	sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return 0
}
