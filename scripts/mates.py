#!/usr/bin/env python3
"""mates.py: how many forced wins of a suite an engine proves at a node count.

Runs any Gomocup-protocol engine (Wuzi, or another engine built locally)
over the positions of search/testdata/mates_engines.txt, one fresh process
a position, each searched to a fixed node count (INFO max_node), and counts
the positions where the engine's last report before its move claims a
proven win for the side to move ("win in N" as Wuzi reports it, "Eval +MN"
as Rapfi does, "ev +vN" as PentaZen does) and where its move is the suite's listed first move. With
the same node count for two engines the counts compare how far each
searches forcing lines for the same work; the suite's wins are 11 to 41
plies long, most with quiet moves in them (docs/evidence.md, 24th and 47th
sessions).

Usage:
    scripts/mates.py [--nodes N] [--suite FILE] [--dir DIR] [-v] -- ENGINE [ARGS...]
Examples:
    scripts/mates.py --nodes 300000 -- bin/pbrain-wuzi
    scripts/mates.py --nodes 300000 --dir $HOME/spar -- $HOME/spar/pbrain-rapfi --config config.toml

With --proof-nodes the script also reads, from the first report that
claims the win, how many nodes the engine had searched when it proved it
(Wuzi's reports carry that count as "n N"; Rapfi's and PentaZen's do not,
and count as unproven there), and prints their geometric mean over the
suite, an unproven position counted at twice the node limit. Given
`--param norootvct=1`, Wuzi proves with its alpha-beta alone, so the mean
measures how soon the iterations find a forced win (docs/evidence.md,
77th session). -j runs that many positions at once.

Prints one line a position with -v, then the totals. The engine gets
START, INFO rule, INFO max_node, INFO max_memory (64 MB), INFO timeout_turn
(--turn, a safety net: the node count should end the search; with --nodes 0,
the limit), INFO timeout_match 0, BOARD...DONE,
and END once it has answered with a move.
"""

import argparse
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

MOVE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
# A proof for the side to move, in the reports the engines print ("win
# in N" Wuzi, "Eval +MN" Rapfi, "ev +vN" PentaZen).
WIN = re.compile(r"\bwin in \d+|Eval \+M\d+|\bev \+v\d+")
# A report of the search's state (a line that may claim a proof or not).
REPORT = re.compile(r"\bdep(th)?\b.*\b(ev|win in|lose in)\b|\bEval\b", re.IGNORECASE)
# The node count of a Wuzi report ("n 182.1k").
NODES = re.compile(r"\bn ([0-9.]+)([kM]?) ")


def load(path):
    """The suite's positions: (rule, size, plies, moves, answer)."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            kind, rule, size, plies, moves, answers = line.split()[:6]
            if kind != "mate":
                continue
            out.append((int(rule), int(size), int(plies), moves.split(";"), answers.split(";")[0]))
    return out


def run(cmd, cwd, rule, size, moves, nodes, turn_ms):
    """Search one position; return (proved, move, nodes at the first
    report of a proof or None) from the engine's output."""
    lines = [f"START {size}", f"INFO rule {rule}", "INFO max_memory 67108864",
             f"INFO max_node {nodes}", f"INFO timeout_turn {turn_ms}", "INFO timeout_match 0", "BOARD"]
    k = len(moves)
    for i, m in enumerate(moves):
        # 1: a stone of the side to move, 2: the opponent's.
        lines.append(f"{m},{1 if (k - i) % 2 == 0 else 2}")
    lines.append("DONE")
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    try:
        p.stdin.write("\n".join(lines) + "\n")
        p.stdin.flush()
    except BrokenPipeError:
        p.wait()
        sys.exit(f"mates.py: the engine exited before reading the position (exit status {p.returncode}): "
                 f"check its command and arguments: {' '.join(cmd)}")
    last, move, first = "", None, None
    for line in p.stdout:
        m = MOVE.match(line)
        if m:
            move = f"{m.group(1)},{m.group(2)}"
            break
        if REPORT.search(line):
            last = line
            n = NODES.search(line)
            if first is None and n and WIN.search(line):
                first = float(n.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[n.group(2)]
    try:
        p.stdin.write("END\n")
        p.stdin.close()
    except BrokenPipeError:
        pass
    p.wait()
    if move is None:
        sys.exit(f"mates.py: the engine gave no move (exit status {p.returncode}): "
                 f"check its command and arguments: {' '.join(cmd)}")
    return bool(WIN.search(last)), move, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=300000, help="nodes a position (default 300000)")
    ap.add_argument("--suite", default=os.path.join(os.path.dirname(__file__), "..", "search", "testdata", "mates_engines.txt"))
    ap.add_argument("--dir", default=None, help="working folder of the engine")
    ap.add_argument("--turn", type=int, default=120000, help="timeout_turn sent, ms (default 120000)")
    ap.add_argument("--first", type=int, default=0, help="only the first N positions")
    ap.add_argument("-v", action="store_true", help="one line a position")
    ap.add_argument("-j", type=int, default=1, help="positions searched at once (default 1)")
    ap.add_argument("--proof-nodes", action="store_true",
                    help="also the nodes to each first proof and their geometric mean")
    ap.add_argument("engine", nargs="+", help="the engine's command and arguments (after --)")
    a = ap.parse_args()
    if a.proof_nodes and a.nodes <= 0:
        ap.error("--proof-nodes needs a node limit (--nodes N, N > 0)")
    suite = load(a.suite)
    if a.first > 0:
        suite = suite[:a.first]
    proved = same = 0
    logs = []

    def one(case):
        rule, size, _, moves, _ = case
        return run(a.engine, a.dir, rule, size, moves, a.nodes, a.turn)

    with ThreadPoolExecutor(max(1, a.j)) as ex:
        for i, ((rule, size, plies, moves, answer), (won, move, first)) in enumerate(zip(suite, ex.map(one, suite))):
            proved += won
            same += move == answer
            if a.proof_nodes:
                logs.append(math.log(first if first else 2 * a.nodes))
            if a.v:
                extra = f" at {first:.0f} nodes" if a.proof_nodes and first else ""
                print(f"{i:3d} mate {plies:2d} move {move} (listed {answer}) {'proven' if won else '-'}{extra}", flush=True)
    print(f"{len(suite)} positions at {a.nodes} nodes: {proved} wins proven, "
          f"{same} times the listed first move")
    if a.proof_nodes and suite:
        print(f"nodes to the first proof: geometric mean {math.exp(sum(logs) / len(logs)):.0f} "
              f"(an unproven position counted at {2 * a.nodes})")


if __name__ == "__main__":
    sys.exit(main())
