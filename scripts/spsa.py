#!/usr/bin/env python3
"""Tune the search's parameters (pbrain-wuzi --param) by SPSA against another engine.

Each iteration draws a random sign for every parameter and plays two builds of
the same binary against the opponent: theta + c*sign and theta - c*sign, on the
same openings and colours (wuzi-match --seed), side by side, each with
--games games. The difference of their points moves theta along the signs
(simultaneous perturbation stochastic approximation, as chess engines tune by
self-play; here every game is against the opponent, so what is tuned is the
score against it, not against Wuzi).

Both Wuzi builds and the opponent are held to node counts (--nodes,
--opp-nodes), so the games neither depend on the machine's load nor on each
other: two matches run at once on two cores. The state (theta, iteration) is
saved after every iteration in --state and the run resumes from it; every
iteration is a line of --log (JSON). Standard library only.

    scripts/spsa.py --engine ./pbrain-wuzi --match ./wuzi-match \\
        --opponent "cmd=$S/pbrain-rapfi --config $S/config.toml,dir=$S,name=Rapfi,option=max_memory=67108864,memlimit=0" \\
        --iterations 600 --state spsa.json --log spsa.jsonl

The result is a set of --param values; it lands only after a match at the
real time control says it plays better (docs/evidence.md).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

# name, start (search.DefaultParams), perturbation c at the end, low, high.
# c is about the change that should cost or gain a few Elo.
PARAMS = [
    ("razor", 100, 25, 0, 600),
    ("futility", 150, 25, 20, 600),
    ("failhigh", 45, 12, 5, 300),
    ("blockext", 3, 1, 0, 9),
    ("policy1", 0, 150, -2000, 2000),
    ("policy2", -600, 150, -3000, 1000),
    ("lmrbase", 50, 25, 0, 300),
    ("lmrscale", 75, 15, 10, 300),
    ("lmpbase", 3, 1, 1, 20),
    ("lmpexp", 132, 12, 60, 250),
    ("aspiration", 60, 20, 10, 400),
    ("evattack", 100, 12, 30, 300),
    ("evdefend", 100, 12, 30, 300),
    ("evthreat", 100, 20, 0, 300),
    ("poldefend", 100, 12, 30, 300),
    ("evlateatt", 100, 12, 30, 300),
    ("evlatedef", 100, 12, 30, 300),
    ("polattack", 100, 12, 30, 300),
    ("att1", 100, 12, 30, 300),
    ("att2", 100, 12, 30, 300),
    ("att3", 100, 12, 30, 300),
    ("att3o", 100, 12, 30, 300),
    ("def1", 100, 12, 30, 300),
    ("def2", 100, 12, 30, 300),
    ("def3", 100, 12, 30, 300),
    ("def3o", 100, 12, 30, 300),
]


def points(results_file):
    """Points of engine 0 (Wuzi) in a wuzi-match results file, and its games."""
    pts, games = 0.0, 0
    with open(results_file) as f:
        for line in f:
            g = json.loads(line)
            if g.get("kind") != "game":
                continue
            games += 1
            wuzi_black = g["black_engine"] == 0
            r = g["result"]
            if r == "1/2-1/2":
                pts += 0.5
            elif (r == "1-0") == wuzi_black and r in ("1-0", "0-1"):
                pts += 1
    return pts, games


def start_match(args, values, seed, out):
    """Starts one wuzi-match of the engine with values against the opponent."""
    params = " ".join(f"--param {n}={v}" for n, v in values.items())
    cmd = [
        args.match,
        "-e", f"cmd={args.engine} {params},name=Wuzi,option=max_node={args.nodes}",
        "-e", f"{args.opponent},option=max_node={args.opp_nodes}",
        "--seed", str(seed), "-n", str(args.games), "-c", "1",
        "--timeout-turn", "30s", "--timeout-match", "0", "--lenient", "--tolerance", "10s",
        "-q", "--results", out,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="pbrain-wuzi binary")
    ap.add_argument("--match", required=True, help="wuzi-match binary")
    ap.add_argument("--opponent", required=True, help="wuzi-match engine spec of the opponent")
    ap.add_argument("--nodes", type=int, default=60000, help="Wuzi's nodes a move")
    ap.add_argument("--opp-nodes", type=int, default=15000, help="the opponent's nodes a move")
    ap.add_argument("--games", type=int, default=4, help="games a side an iteration (even: colours swapped)")
    ap.add_argument("--iterations", type=int, default=600)
    ap.add_argument("--r-end", type=float, default=0.04, help="learning rate at the end (a step of r*c per point)")
    ap.add_argument("--seed", type=int, default=1, help="draws the signs and the openings")
    ap.add_argument("--state", required=True, help="JSON file of theta and the iteration (resumed)")
    ap.add_argument("--log", required=True, help="JSON lines, one an iteration")
    ap.add_argument("--tune", default="", help="comma-separated names to tune (default: all); the others keep their defaults")
    args = ap.parse_args()
    params = PARAMS
    if args.tune:
        names = [x.strip() for x in args.tune.split(",") if x.strip()]
        known = {p[0] for p in PARAMS}
        if unknown := [x for x in names if x not in known]:
            sys.exit(f"--tune: unknown {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        params = [p for p in PARAMS if p[0] in names]

    theta = {n: float(s) for n, s, _, _, _ in params}
    k0 = 0
    if os.path.exists(args.state):
        with open(args.state) as f:
            st = json.load(f)
        theta.update({m: v for m, v in st["theta"].items() if m in theta})
        k0 = st["k"]
    n = args.iterations
    big_a = n / 5
    tmp = tempfile.mkdtemp(prefix="spsa")
    total = [0.0, 0.0, 0]
    for k in range(k0, n):
        rng = random.Random(args.seed * 1_000_003 + k)
        signs = {name: rng.choice((-1, 1)) for name, *_ in params}
        ck = ((n + 1) / (k + 1)) ** 0.101  # c_k = c * ck: c at the end
        rk = args.r_end * ((big_a + n) / (big_a + k + 1)) ** 0.602
        plus, minus = {}, {}
        for name, _, c, lo, hi in params:
            d = c * ck * signs[name]
            plus[name] = int(round(min(hi, max(lo, theta[name] + d))))
            minus[name] = int(round(min(hi, max(lo, theta[name] - d))))
        seed = args.seed * 100_000 + k
        fp, fm = os.path.join(tmp, "p.jsonl"), os.path.join(tmp, "m.jsonl")
        for f in (fp, fm):
            if os.path.exists(f):
                os.remove(f)
        pp, pm = start_match(args, plus, seed, fp), start_match(args, minus, seed, fm)
        ep, em = pp.communicate()[1], pm.communicate()[1]
        if pp.returncode != 0 or pm.returncode != 0:
            sys.exit(f"wuzi-match failed: {ep[-500:]}{em[-500:]}")
        sp, gp = points(fp)
        sm, gm = points(fm)
        if gp != args.games or gm != args.games:
            sys.exit(f"iteration {k}: {gp} and {gm} games, want {args.games}")
        result = sp - sm
        for name, _, c, lo, hi in params:
            theta[name] = min(hi, max(lo, theta[name] + rk * c * ck * result * signs[name]))
        total[0] += sp
        total[1] += sm
        total[2] += gp
        rec = {"k": k, "plus": plus, "minus": minus, "score_plus": sp, "score_minus": sm,
               "theta": {m: round(v, 2) for m, v in theta.items()}}
        with open(args.log, "a") as f:
            f.write(json.dumps(rec) + "\n")
        with open(args.state + ".tmp", "w") as f:
            json.dump({"k": k + 1, "theta": theta}, f)
        os.replace(args.state + ".tmp", args.state)
        line = " ".join(f"{m}={v:.1f}" for m, v in theta.items())
        print(f"{k + 1}/{n} {sp:g}-{sm:g} (run: {total[0]:g}+{total[1]:g} of {2 * total[2]}) {line}", flush=True)
    print(" ".join(f"--param {m}={int(round(v))}" for m, v in theta.items()))


if __name__ == "__main__":
    main()
