#!/usr/bin/env python3
"""Reference perft rows from Debian's fairy-stockfish, checked against vzero.

Plays seeded random games with fairy-stockfish (its own move lists), keeps
positions along the way (preferring ones with checks, hands and promoted
pieces), counts perft there with `go perft DEPTH` and compares every move's
count with `vzero perft --divide` (so the move texts must agree too). Prints
the rows as C++ initialisers for tests/test_perft.cpp / tests/test_shogi.cpp.

  scripts/fairy-perft-rows.py VARIANT --positions 30 --depth 2 [--seed 1]
  scripts/fairy-perft-rows.py VARIANT --games 5   # vzero's moves and FEN read by fairy-stockfish
"""
import argparse
import random
import subprocess
import sys


class Engine:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value " + variant)
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish ended")
            lines.append(line.rstrip("\n"))
            if line.startswith(token):
                return lines

    def divide(self, fen, depth):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        out = {}
        for line in self.wait("Nodes searched"):
            if ": " in line and not line.startswith("Nodes"):
                move, n = line.split(": ")
                out[move] = int(n)
        return out

    def show(self, fen, moves=()):
        self.send("position fen " + fen + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        info = {}
        for line in self.wait("Checkers"):
            if ": " in line:
                k, v = line.split(": ", 1)
                info[k.strip()] = v.strip()
        return info


def vzero_divide(vzero, variant, fen, depth):
    out = subprocess.run([vzero, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth),
                          "--divide"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    res = {}
    for line in out.stdout.splitlines():
        if ": " in line:
            m, n = line.split(": ")
            res[m] = int(n)
    return res, ""


def check_games(args, fs):
    """Random games by `vzero play --watch`: fairy-stockfish takes vzero's move
    texts and must reach the same FEN after every move. Returns mismatches."""
    bad = 0
    for g in range(args.games):
        out = subprocess.run([args.vzero, "play", "--variant", args.variant, "--watch", "--seed",
                              str(args.seed + g)], capture_output=True, text=True).stdout
        fens = [l[5:] for l in out.splitlines() if l.startswith("FEN: ")]
        moves = [l.split(" plays ")[1] for l in out.splitlines() if " plays " in l]
        for i in range(min(len(moves), args.max_plies)):
            fen = fs.show(fens[0], moves[:i + 1])["Fen"]
            if fen != fens[i + 1]:
                bad += 1
                print("game %d ply %d after %s: fairy-stockfish %s, vzero %s" % (g, i + 1, moves[i], fen, fens[i + 1]),
                      file=sys.stderr)
                break
        print("game %d: %d plies compared" % (g, min(len(moves), args.max_plies)), file=sys.stderr)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--games", type=int, default=0, help="compare FEN along this many vzero games instead")
    ap.add_argument("--fs", default="/usr/games/fairy-stockfish")
    ap.add_argument("--vzero", default="./build/cli/vzero")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fs = Engine(args.fs, args.variant)
    if args.games:
        return 1 if check_games(args, fs) else 0
    fs.send("position startpos")
    fs.send("d")
    start_fen = [l for l in fs.wait("Checkers") if l.startswith("Fen: ")][0][5:]
    picked, seen = [], set()
    games = 0
    while len(picked) < args.positions and games < 50 * args.positions:
        games += 1
        fen = start_fen
        plies = rng.randint(6, args.max_plies)
        for ply in range(plies):
            moves = sorted(fs.divide(fen, 1))
            if not moves:
                break
            fen = fs.show(fen, [rng.choice(moves)])["Fen"]
        info = fs.show(fen)
        board = fen.split()[0]
        hand = board[board.find("[") + 1:board.find("]")] if "[" in board else ""
        legal = fs.divide(fen, 1)
        promotes = any("@" not in m and not m[-1].isdigit() for m in legal)
        kinds = [bool(info.get("Checkers")), promotes, bool(hand), "+" in board]
        # Keep every position with a check or a promotion; others with a chance
        # that favours hands and promoted pieces.
        want = kinds[0] or kinds[1] or rng.random() < 0.2 + 0.3 * kinds[2] + 0.3 * kinds[3]
        if want and fen not in seen and legal:
            seen.add(fen)
            picked.append((fen, kinds))
    bad = 0
    for fen, kinds in picked:
        ref = fs.divide(fen, args.depth)
        total = sum(ref.values())
        mine, err = vzero_divide(args.vzero, args.variant, fen, args.depth)
        note = ",".join(n for n, k in zip(("check", "promotion", "hand", "promoted"), kinds) if k)
        if mine != ref:
            bad += 1
            print("// MISMATCH %s: %s" % (fen, err), file=sys.stderr)
            if mine is not None:
                for m in sorted(set(ref) | set(mine)):
                    if ref.get(m) != mine.get(m):
                        print("//   %s fs %s vzero %s" % (m, ref.get(m), mine.get(m)), file=sys.stderr)
        print('    {"%s", "%s", %d, %d},  // %s' % (args.variant, fen, args.depth, total, note or "-"))
    print("// %d positions, %d mismatches" % (len(picked), bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
