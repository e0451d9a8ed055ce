#!/usr/bin/env python3
"""Reference perft rows from Debian's fairy-stockfish, checked against vzero.

Plays seeded random games with fairy-stockfish (its own move lists), keeps
positions along the way (preferring ones with checks, hands and promoted
pieces), counts perft there with `go perft DEPTH` and compares every move's
count with `vzero perft --divide` (so the move texts must agree too). Prints
the rows as C++ initialisers for tests/test_perft.cpp / tests/test_shogi.cpp.

  scripts/fairy-perft-rows.py VARIANT --positions 30 --depth 2 [--seed 1] [--checks 8]
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


def pawn_drop_mates(args, fs, fen, depth):
    """Leaves of fairy-stockfish's tree of this depth that are pawn drops giving
    mate: Fairy-Stockfish generates them (and scores them as a loss for the
    dropper); vzero does not (uchifuzume, SH-10). Found by walking down where
    the two divides differ; None when a difference has any other cause."""
    ref = fs.divide(fen, depth)
    mine, _ = vzero_divide(args.vzero, args.variant, fen, depth)
    if mine is None or set(mine) - set(ref):
        return None
    total = 0
    for m in ref:
        if ref[m] == mine.get(m):
            continue
        child = fs.show(fen, [m])
        if m not in mine:  # the move itself: a pawn drop that mates
            if not (m.startswith("P@") and child.get("Checkers") and not fs.divide(child["Fen"], 1)):
                return None
            total += ref[m]  # 1 at depth 1, else 0 (no replies)
            continue
        k = pawn_drop_mates(args, fs, child["Fen"], depth - 1) if depth > 1 else None
        if k is None or ref[m] - mine[m] != k:
            return None
        total += k
    return total


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
    ap.add_argument("--checks", type=int, default=0, help="at least this many positions in check")
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
        # Keep room for --checks positions in check.
        if not kinds[0] and sum(1 for _, k in picked if not k[0]) >= args.positions - args.checks:
            want = False
        if want and fen not in seen and legal:
            seen.add(fen)
            picked.append((fen, kinds))
    bad = 0
    hands = "[" in start_fen
    for fen, kinds in picked:
        ref = fs.divide(fen, args.depth)
        total = sum(ref.values())
        mine, err = vzero_divide(args.vzero, args.variant, fen, args.depth)
        note = ",".join(n for n, k in zip(("check", "promotion", "hand", "promoted"), kinds) if k)
        drops = 0
        if mine != ref:
            drops = pawn_drop_mates(args, fs, fen, args.depth) if mine is not None else None
            if drops:
                note += ", fairy-stockfish counts %d pawn drop mate%s" % (drops, "s" * (drops > 1))
            else:
                bad += 1
                print("// MISMATCH %s: %s" % (fen, err), file=sys.stderr)
                for m in sorted(set(ref) | set(mine or {})):
                    if ref.get(m) != (mine or {}).get(m):
                        print("//   %s fs %s vzero %s" % (m, ref.get(m), (mine or {}).get(m)), file=sys.stderr)
        if hands:  # rows of tests/test_shogi.cpp: fairy-stockfish's count and its pawn drop mates
            print('    {"%s", "%s", %d, %d, %d},  // %s' % (args.variant, fen, args.depth, total, drops or 0, note or "-"))
        else:
            print('    {"%s", "%s", %d, %d},  // %s' % (args.variant, fen, args.depth, total, note or "-"))
    print("// %d positions, %d mismatches" % (len(picked), bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
