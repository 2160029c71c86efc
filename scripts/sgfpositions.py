#!/usr/bin/env python3
"""sgfpositions.py: the positions of wuzi-match's SGF games, with the move each engine played.

Writes one line a position in the self-play line format (docs/selfplay.md)
for every position of the games where ENGINE was to move, from the first
move after the opening (the "opening N stones" of each game's comment) to
the last, with the move played in the game as the best field (score and
depth 0). So a gauntlet's games (matches/NAME/games.sgf, which keep no
results file) can be searched again, and with scripts/abjudge.py
--a-labels the file itself stands for "the move played in the game":

    scripts/sgfpositions.py --engine Wuzi --fraction 0.2 matches/g95-rapfi/games.sgf > wz.txt
    scripts/abjudge.py --a "cmd=bin/pbrain-wuzi" --b "cmd=bin/pbrain-wuzi" \\
        --a-labels wz.txt --judge "..." --out ab wz.txt

Games are numbered from 0 over all the files in order. --skip-end leaves out
the positions that close to each game's end (decided ones mostly);
--fraction keeps that share of the rest, drawn with --seed.
"""

import argparse
import random
import re
import sys


def cell(sgf):
    """A cell of the line format (column letter, row from 1) from SGF's two letters."""
    return sgf[0] + str(ord(sgf[1]) - ord("a") + 1)


def games(text):
    """(properties, moves) of each game of an SGF collection: the root's
    properties (the first of each name) and the moves in order."""
    for game in re.split(r"(?=\(;FF\[)", text):
        if not game.startswith("(;"):
            continue
        props = {}
        for key, value in re.findall(r"\b(PB|PW|RE|RU|SZ|C)\[([^\]]*)\]", game):
            props.setdefault(key, value)
        moves = re.findall(r";[BW]\[([a-z]{2})\]", game)
        yield props, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="keep the positions this engine (PB or PW) was to move in")
    ap.add_argument("--fraction", type=float, default=1.0, help="share of the positions kept (default all)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the draw (default 1)")
    ap.add_argument("--skip-end", type=int, default=0, help="leave out the last N positions of each game")
    ap.add_argument("sgf", nargs="+")
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    n = 0
    for number, (props, moves) in enumerate(g for path in args.sgf for g in games(open(path).read())):
        if not props.get("SZ", "15").isdigit():
            print(f"game {number}: board {props['SZ']} is not square; left out", file=sys.stderr)
            continue
        m = re.search(r"opening (\d+) stone", props.get("C", ""))
        first = int(m.group(1)) if m else 0
        result = props.get("RE", "")
        for ply in range(first, len(moves) - args.skip_end):
            side = "b" if ply % 2 == 0 else "w"
            if props.get("PB" if side == "b" else "PW") != args.engine:
                continue
            if rnd.random() >= args.fraction:
                continue
            res = 0
            if result[:1] in ("B", "W"):
                res = 1 if result[0].lower() == side else -1
            played = "".join(cell(x) for x in moves[:ply])
            print(props.get("RU", "freestyle"), props.get("SZ", "15"), number, ply, side, 0, 0,
                  cell(moves[ply]), res, played)
            n += 1
    print(f"{n} positions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
