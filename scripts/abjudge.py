#!/usr/bin/env python3
"""abjudge.py: two builds' moves on the same positions, judged by a stronger engine.

A paired yardstick for changes that alter the move in a minority of
positions, such as the time the root's threat searches take at a clock. Both
engines (A, the build before, and B, the change) search every position of the
input files at the same clock (wuzi-train label); wherever their moves differ,
the judge scores the position after each move, and the two are compared from
the mover's side. Positions where both play the same move cost one search
each and say nothing; the others are a paired sample with the rest of the
game held fixed (docs/evidence.md, 55th session, has the calibration: half
and twice the time against the full turn).

Usage:
    scripts/abjudge.py --a SPEC --b SPEC --judge SPEC [flags] POSITIONS...
Example (the judge built locally, not part of the project):
    S=$HOME/spar
    scripts/abjudge.py --a "cmd=bin/pbrain-wuzi" --b "cmd=X --param name=1" \\
        --judge "cmd=$S/pbrain-rapfi --config $S/config.toml,dir=$S,option=max_memory=67108864,option=max_node=400000" \\
        --turn 1s --out ab/ positions.txt

SPEC is an engine as wuzi-match takes it (cmd=PROGRAM ARGS,dir=DIR,option=K=V).
POSITIONS are files in the self-play line format (docs/selfplay.md): data/*.txt.gz
gunzipped, or `wuzi-train games` of a match's results. Every stage is kept in
--out (A.txt, B.txt, kids.txt, J.txt) and reused when present, so a run that
stops resumes, and --a-labels reuses one labelling of A for several B's.

At a clock, the same build run twice plays another move in about 15 % of
the positions (the iterations end at other points), so part of every
difference is noise: a run of 1,000 positions resolves about the effect of
halving the time (the calibration above), and with a judge of 400,000 nodes
doubling the time from 1 s is not seen at all: a coarse yardstick that rules
out large losses cheaply, not a replacement for matches. For a change that
does not depend on the clock, hold both engines to one node count instead
(option=max_node=N in both SPECs and a --turn long enough): their searches
are then deterministic, and every differing move is the change's (nearly:
Wuzi's root threat searches keep a cap of a share of the clock even at a
node limit, so a busy machine changes a few searches; 96th session).

Judge with Rapfi (or another engine that searches every position), not with
Wuzi: Wuzi's root plays a forced move at once, a block of a four or the one
move that refutes the opponent's VCF, and reports its static evaluation as
the score, so where such a move follows, a Wuzi judge gives a static score
for a decided position (nearly a third of the judge's searches on the middle games
of the 96th session, docs/evidence.md).

The judge's score of the position after each move, v (its units, the side
that moved), becomes a win probability 1/(1+exp(-v/scale)); the report gives
how many differing moves B played better, worse and level (within 0.01), a
two-sided sign test, the mean change of win probability per differing move
with its 95% interval, and how often one build's move is a proven win or
loss by the judge where the other's is not.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

MATE = 20000  # judge scores beyond this are proven results (Rapfi and Wuzi both report about 30000)


def read_labels(path):
    """Labelled positions by their moves: {moves: fields}."""
    out = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) >= 10:
                out[t[9]] = t
    return out


def label(wt, spec, turn, src, dst, jobs):
    """Has spec label src into dst, unless dst is there already."""
    if os.path.exists(dst) and os.path.getsize(dst) > 0:
        return
    tmp = dst + ".part"
    subprocess.run([wt, "label", "--engine", spec, "--turn", turn, "-j", str(jobs), "-o", tmp, src], check=True)
    os.replace(tmp, dst)


def child(fields, move):
    """The line of the position after move, unlabelled."""
    t = list(fields)
    t[3] = str(int(t[3]) + 1)
    t[4] = "b" if t[4] == "w" else "w"
    t[5], t[6], t[7] = "0", "0", "a1"
    t[8] = str(-int(t[8]))
    t[9] = fields[9] + move
    return " ".join(t)


def sign_test(k, n):
    """Two-sided binomial p-value of k successes in n at one half."""
    if n == 0:
        return 1.0
    k = min(k, n - k)
    p = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="engine A (the build before), as wuzi-match takes it")
    ap.add_argument("--b", required=True, help="engine B (the change)")
    ap.add_argument("--judge", required=True, help="the judging engine; hold it to a node count with option=max_node=N")
    ap.add_argument("--turn", default="1s", help="timeout_turn of A and B (default 1s)")
    ap.add_argument("--turn-b", help="B's timeout_turn when it differs from A's")
    ap.add_argument("--judge-turn", default="20s", help="the judge's timeout_turn (default 20s: its node count should end it)")
    ap.add_argument("--jobs", type=int, default=1, help="engine processes at once (default 1: a clock wants a core each)")
    ap.add_argument("--scale", type=float, default=200, help="judge units of one logistic step (default 200, Rapfi's)")
    ap.add_argument("--out", required=True, help="folder for every stage's files (reused when present)")
    ap.add_argument("--a-labels", help="A's labels from an earlier run on the same positions")
    ap.add_argument("--wuzi-train", help="the wuzi-train binary (default: built from this repository)")
    ap.add_argument("-v", action="store_true", help="list the differing positions, largest changes first")
    ap.add_argument("positions", nargs="+")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    wt = args.wuzi_train
    if not wt:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        wt = os.path.join(args.out, "wuzi-train")
        subprocess.run(["go", "build", "-o", wt, "./cmd/wuzi-train"], cwd=root, check=True)
    src = os.path.join(args.out, "positions.txt")
    if not os.path.exists(src):
        with open(src, "w") as f:
            for p in args.positions:
                with open(p) as g:
                    shutil.copyfileobj(g, f)
    a_path, b_path = os.path.join(args.out, "A.txt"), os.path.join(args.out, "B.txt")
    if args.a_labels and not os.path.exists(a_path):
        shutil.copyfile(args.a_labels, a_path)
    label(wt, args.a, args.turn, src, a_path, args.jobs)
    label(wt, args.b, args.turn_b or args.turn, src, b_path, args.jobs)
    a, b = read_labels(a_path), read_labels(b_path)

    kids = set()
    for k, fa in a.items():
        fb = b.get(k)
        if fb and fa[7] != fb[7]:
            kids.add(child(fa, fa[7]))
            kids.add(child(fa, fb[7]))
    kids_path, j_path = os.path.join(args.out, "kids.txt"), os.path.join(args.out, "J.txt")
    if not os.path.exists(j_path):
        with open(kids_path, "w") as f:
            f.writelines(line + "\n" for line in sorted(kids))
        if kids:
            label(wt, args.judge, args.judge_turn, kids_path, j_path, args.jobs)
        else:
            open(j_path, "w").close()
    j = read_labels(j_path)

    def value(k, move):
        t = j.get(k + move)
        return None if t is None else -int(t[5])

    def wp(v):
        return 1 / (1 + math.exp(-max(-30 * args.scale, min(30 * args.scale, v)) / args.scale))

    both = same = 0
    rows = []
    for k, fa in a.items():
        fb = b.get(k)
        if not fb:
            continue
        both += 1
        if fa[7] == fb[7]:
            same += 1
            continue
        va, vb = value(k, fa[7]), value(k, fb[7])
        if va is None or vb is None:
            continue
        rows.append((wp(vb) - wp(va), va, vb, fa, fb))
    n = len(rows)
    better = sum(1 for r in rows if r[0] > 0.01)
    worse = sum(1 for r in rows if r[0] < -0.01)
    mean = sum(r[0] for r in rows) / n if n else 0.0
    sd = math.sqrt(sum((r[0] - mean) ** 2 for r in rows) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    wins_b = sum(1 for r in rows if r[2] >= MATE and r[1] < MATE)
    wins_a = sum(1 for r in rows if r[1] >= MATE and r[2] < MATE)
    loss_b = sum(1 for r in rows if r[2] <= -MATE and r[1] > -MATE)
    loss_a = sum(1 for r in rows if r[1] <= -MATE and r[2] > -MATE)

    print(f"positions searched by both: {both}; the same move: {same}; different: {both - same}; judged: {n}")
    print(f"B's move better: {better}, worse: {worse}, level: {n - better - worse}"
          f" (sign test p = {sign_test(better, better + worse):.3f})")
    print(f"win probability, B less A, per differing move: {mean:+.4f} ± {half:.4f} (95 %);"
          f" per position searched: {mean * n / max(both, 1):+.4f}")
    print(f"the judge proves a win after B's move and not A's: {wins_b}; after A's and not B's: {wins_a}")
    print(f"the judge proves a loss after B's move and not A's: {loss_b}; after A's and not B's: {loss_a}")
    if args.v:
        for d, va, vb, fa, fb in sorted(rows, key=lambda r: -abs(r[0])):
            print(f"{d:+.3f}  ply {fa[3]}  A {fa[7]} ({va})  B {fb[7]} ({vb})  {fa[9]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
