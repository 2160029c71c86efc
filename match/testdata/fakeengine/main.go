// Command fakeengine is a deliberately simple Piskvork-protocol brain for the
// match runner's tests. It plays legal random moves (or a fixed sequence),
// then misbehaves in the way -mode asks: crash (briefly, or with a long
// stack), time out, play an occupied or off-board cell, print junk or ERROR,
// refuse START, use too much memory.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

type point struct{ x, y int }

type brain struct {
	w, h  int
	stone map[point]bool
	last  point // the opponent's last stone
	moves int   // moves this brain has answered
	rng   *rand.Rand
	seq   []point
	mode  string
	after int
	msgs  bool
	delay time.Duration
	mb    int
	out   *bufio.Writer
}

// hog keeps what memory mode allocated, so that it stays resident.
var hog [][]byte

func main() {
	mode := flag.String("mode", "random", "random, seq, crash, panic, timeout, occupied, offboard, junk, error, errormove, startfail, exitstart, memory")
	after := flag.Int("after", 0, "legal moves to play before misbehaving")
	moves := flag.String("moves", "", "seq mode: moves x,y separated by ';'")
	seed := flag.Uint64("seed", 1, "random seed")
	logFile := flag.String("log", "", "append every received line to this file")
	msgs := flag.Bool("messages", false, "print MESSAGE and DEBUG lines before each move")
	delay := flag.Duration("delay", 0, "sleep before each move")
	startDelay := flag.Duration("startdelay", 0, "sleep before answering START")
	mb := flag.Int("mb", 100, "memory mode: MiB to allocate and touch while thinking about each move, kept until exit")
	flag.Parse()

	b := &brain{
		stone: map[point]bool{},
		rng:   rand.New(rand.NewPCG(*seed, 7)),
		mode:  *mode,
		after: *after,
		msgs:  *msgs,
		delay: *delay,
		mb:    *mb,
		out:   bufio.NewWriter(os.Stdout),
	}
	for _, m := range strings.Split(*moves, ";") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		var p point
		if _, err := fmt.Sscanf(m, "%d,%d", &p.x, &p.y); err == nil {
			b.seq = append(b.seq, p)
		}
	}
	var log *os.File
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			log = f
			defer f.Close()
		}
	}

	in := bufio.NewReader(os.Stdin)
	inBoard := false
	for {
		raw, err := in.ReadString('\n')
		if err != nil && raw == "" {
			return
		}
		raw = strings.TrimSuffix(raw, "\n") // keep a CR, so the log shows it
		if log != nil {
			fmt.Fprintf(log, "%q\n", raw)
		}
		line := strings.TrimSpace(raw)
		if inBoard {
			if strings.EqualFold(line, "DONE") {
				inBoard = false
				b.move()
				continue
			}
			f := strings.Split(line, ",")
			if len(f) == 3 {
				x, _ := strconv.Atoi(f[0])
				y, _ := strconv.Atoi(f[1])
				b.stone[point{x, y}] = true
				b.last = point{x, y}
			}
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		switch strings.ToUpper(word) {
		case "START", "RECTSTART":
			switch b.mode {
			case "startfail":
				b.say("ERROR unsupported size")
				continue
			case "exitstart":
				os.Exit(2)
			}
			if strings.ToUpper(word) == "START" {
				n, _ := strconv.Atoi(rest)
				b.w, b.h = n, n
			} else {
				fmt.Sscanf(rest, "%d,%d", &b.w, &b.h)
			}
			b.stone = map[point]bool{}
			time.Sleep(*startDelay)
			b.say("OK")
		case "INFO":
		case "BEGIN":
			b.move()
		case "BOARD":
			b.stone = map[point]bool{}
			inBoard = true
		case "TURN":
			var p point
			fmt.Sscanf(rest, "%d,%d", &p.x, &p.y)
			b.stone[p] = true
			b.last = p
			b.move()
		case "END":
			return
		case "ABOUT":
			b.say(`name="fakeengine", version="1"`)
		default:
			b.say("UNKNOWN " + line)
		}
	}
}

func (b *brain) say(s string) {
	b.out.WriteString(s + "\n")
	b.out.Flush()
}

func (b *brain) move() {
	if b.delay > 0 {
		time.Sleep(b.delay)
	}
	if b.msgs {
		b.say(fmt.Sprintf("MESSAGE thinking about move %d", b.moves+1))
		b.say("DEBUG some debug text")
	}
	b.moves++
	if b.moves > b.after {
		switch b.mode {
		case "crash":
			fmt.Fprintln(os.Stderr, "fakeengine: crashing on purpose")
			b.say("MESSAGE about to crash")
			os.Exit(3)
		case "panic":
			// A Go-like death: the message first, then a long stack.
			fmt.Fprintln(os.Stderr, "panic: fakeengine: out of ideas")
			for i := 0; i < 40; i++ {
				fmt.Fprintf(os.Stderr, "\tframe %d\n", i)
			}
			os.Exit(2)
		case "timeout":
			time.Sleep(time.Hour)
		case "occupied":
			b.say(fmt.Sprintf("%d,%d", b.last.x, b.last.y))
			return
		case "offboard":
			b.say(fmt.Sprintf("%d,%d", b.w, 0))
			return
		case "junk":
			b.say("hello there")
			return
		case "error":
			b.say("ERROR something went wrong")
			return
		case "memory":
			// Allocate and write every page, so the memory is resident,
			// then think a little while holding it and play normally.
			buf := make([]byte, b.mb<<20)
			for i := 0; i < len(buf); i += 4096 {
				buf[i] = 1
			}
			hog = append(hog, buf)
			time.Sleep(150 * time.Millisecond)
		case "errormove":
			// An ERROR line, then a legal move all the same (as some
			// engines do with an INFO they do not know).
			b.say("ERROR Unknown command: TIME_LEFT")
		}
	}
	if b.mode == "seq" && b.moves <= len(b.seq) {
		p := b.seq[b.moves-1]
		b.stone[p] = true
		b.say(fmt.Sprintf("%d,%d", p.x, p.y))
		return
	}
	var free []point
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if !b.stone[point{x, y}] {
				free = append(free, point{x, y})
			}
		}
	}
	if len(free) == 0 {
		b.say("ERROR board full")
		return
	}
	p := free[b.rng.IntN(len(free))]
	b.stone[p] = true
	b.say(fmt.Sprintf("%d,%d", p.x, p.y))
}
