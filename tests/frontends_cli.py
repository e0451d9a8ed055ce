#!/usr/bin/env python3
"""The frontends through the vzero binary: a person's games in `vzero play`
(against net: and mcts: players) driven through stdin to the end, a scripted
`vzero uci` session (its stop latency printed), and a 4-player game through
`vzero serve --stdio` against a net: player. Usage: frontends_cli.py VZERO"""
import json
import os
import random
import select
import subprocess
import sys
import time

VZERO = sys.argv[1]
TIMEOUT = 120.0


class Process:
    """A vzero subprocess read without blocking forever."""

    def __init__(self, *args):
        self.p = subprocess.Popen([VZERO, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.buffer = b""
        self.transcript = []

    def send(self, line):
        self.transcript.append("> " + line)
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()

    def read_until(self, predicate, timeout=TIMEOUT):
        """Reads until predicate(buffer) holds; returns the buffer and empties it."""
        end = time.monotonic() + timeout
        while not predicate(self.buffer):
            left = end - time.monotonic()
            ready, _, _ = select.select([self.p.stdout], [], [], max(left, 0))
            if not ready:
                sys.exit("timed out; last output:\n" + self.buffer.decode(errors="replace")[-2000:])
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                if predicate(self.buffer):
                    break
                sys.exit("vzero ended early; last output:\n" + self.buffer.decode(errors="replace")[-2000:])
            self.buffer += chunk
        out, self.buffer = self.buffer.decode(), b""
        self.transcript.append(out)
        return out

    def read_line_starting(self, prefix, timeout=TIMEOUT):
        """Reads lines until one starts with prefix; returns all lines read."""
        def has(buf):
            return any(l.startswith(prefix.encode()) for l in buf.split(b"\n")[:-1])
        text = self.read_until(has, timeout)
        lines = text.split("\n")
        # Keep what came after the matching line for the next read.
        index = next(i for i, l in enumerate(lines) if l.startswith(prefix))
        self.buffer = "\n".join(lines[index + 1:]).encode()
        return lines[: index + 1]

    def finish(self, timeout=30):
        self.p.stdin.close()
        rc = self.p.wait(timeout)
        rest = self.p.stdout.read().decode()
        return rc, rest


def check(cond, message):
    if not cond:
        sys.exit("FAIL: " + message)


def play_game(variant, opponent, seat, seed, extra=()):
    """A person at `seat` plays seeded random legal actions until the game ends."""
    rng = random.Random(seed)
    p = Process("play", "--variant", variant, "--opponent", opponent, "--seat", str(seat), "--seed", str(seed), *extra)
    prompt = "(you)> "
    turns = 0
    hinted = undone = False
    while True:
        out = p.read_until(lambda b: b.endswith(prompt.encode()) or b"game over:" in b)
        if "game over:" in out:
            break
        if not hinted:
            p.send("hint 32")
            out = p.read_until(lambda b: b.endswith(prompt.encode()))
            check("visits" in out and "prior" in out and "value" in out, "hint shows visits, prior and value")
            hinted = True
        p.send("moves")
        legal = p.read_until(lambda b: b.endswith(prompt.encode())).split("\n")[0].split()
        check(legal, "moves lists the legal actions")
        if turns == 3 and not undone:
            p.send("undo")
            undone = True
            continue
        p.send(rng.choice(legal))
        turns += 1
        check(turns < 2000, "the game ends")
    if not out.rstrip().endswith(")"):
        out += p.read_until(lambda b: b.endswith(b"\n"))
    rc, rest = p.finish()
    out += rest
    check(rc == 0, "vzero play exits 0")
    line = next(l for l in out.split("\n") if l.startswith("game over:"))
    check("returns" in line and f"(you: seat {seat})" in line, "the end line names the returns and the person")
    check("last move: seat" in "".join(p.transcript), "the board shows the last move")
    print(f"play {variant} against {opponent}: {turns} actions of the person, {line}")


def uci_session():
    legal = subprocess.run([VZERO, "perft", "--variant", "grand", "--moves", "e3e4 e8e7", "--depth", "1", "--divide"],
                           capture_output=True, text=True, check=True).stdout
    legal = {l.split(":")[0] for l in legal.split("\n") if ":" in l}
    p = Process("uci")
    p.send("uci")
    lines = p.read_line_starting("uciok")
    check(any(l.startswith("option name UCI_Variant type combo") and " var grand" in l for l in lines),
          "uci lists UCI_Variant with grand")
    p.send("setoption name UCI_Variant value grand")
    p.send("isready")
    p.read_line_starting("readyok")
    p.send("position startpos moves e3e4 e8e7")
    p.send("go nodes 400")
    lines = p.read_line_starting("bestmove")
    best = lines[-1].split()[1]
    check(best in legal, f"bestmove {best} is legal")
    check(any(l.startswith("info depth") and " nodes 400 " in l for l in lines), "an info line reports 400 nodes")
    p.send("flip the board")
    p.send("position startpos moves e3e4 e3e5")
    p.send("isready")
    lines = p.read_line_starting("readyok")
    check(sum(l.startswith("info string") for l in lines) == 2, "bad input gets info string")
    latencies = []
    for _ in range(5):
        p.send("go infinite")
        time.sleep(0.5)
        t0 = time.monotonic()
        p.send("stop")
        lines = p.read_line_starting("bestmove", timeout=5)
        latencies.append((time.monotonic() - t0) * 1000)
    t0 = time.monotonic()
    p.send("go infinite")
    time.sleep(0.3)
    p.send("quit")
    rc = p.p.wait(5)
    quit_ms = (time.monotonic() - t0 - 0.3) * 1000
    check(rc == 0, "vzero uci exits 0 on quit")
    check(max(latencies) < 2000, "stop answers within 2 s")
    print("uci stop -> bestmove latency through the pipe (ms): " + " ".join(f"{x:.1f}" for x in latencies)
          + f"; quit while thinking -> exit: {quit_ms:.1f} ms")


def serve_game():
    p = Process("serve", "--stdio")
    p.send(json.dumps({"cmd": "start", "variant": "attrition-4p", "player": "net:sims=8", "seed": 2}))
    state = json.loads(p.read_line_starting("{")[-1])
    check("error" not in state, "start with a net: player")
    plies = 0
    while not state["terminal"]:
        p.send(json.dumps({"cmd": "analyse", "sims": 8, "top": 2}))
        a = json.loads(p.read_line_starting("{")[-1])
        check(len(a["actions"]) >= 1 and len(a["value"]) == 4, "analyse gives actions and 4 values")
        p.send(json.dumps({"cmd": "pick", "apply": True}))
        state = json.loads(p.read_line_starting("{")[-1])
        plies += 1
        check(plies < 500, "the game ends")
    p.send('{"cmd": "quit"}')
    check(json.loads(p.read_line_starting("{")[-1]) == {"bye": True}, "quit says bye")
    rc, _ = p.finish()
    check(rc == 0, "vzero serve exits 0")
    print(f"serve attrition-4p against net: {plies} plies, {state['end_reason']}, returns {state['returns']}")


def play_default_opponent():
    """Without --opponent, play takes the variant's shipped model (losalamos has
    one), else heuristic search, said on stderr (chess has none)."""
    for variant, env, expected in (("losalamos", {}, "net:model="), ("chess", {"VZERO_MODELS": "/nonexistent"}, None)):
        r = subprocess.run([VZERO, "play", "--variant", variant], input="quit\n", capture_output=True, text=True,
                           timeout=TIMEOUT, env={**os.environ, **env})
        check(r.returncode == 0, f"play {variant} with the default opponent exits 0: {r.stderr}")
        first = r.stdout.split("\n")[0]
        if expected:
            check(first.startswith(f"vzero play {variant} against {expected}") and f"/{variant}.pt:" in first,
                  f"play {variant} takes the shipped model: {first}")
        else:
            check("against mcts:evaluator=heuristic" in first, f"play {variant} falls back: {first}")
            check(f"no shipped model for {variant}" in r.stderr, f"the fallback is said: {r.stderr}")
        print(f"play {variant}, default opponent: {first.split(': enter')[0]}")


play_default_opponent()
play_game("chess", "net:sims=4", 1, 11)
play_game("attrition-4p", "mcts:sims=16", 2, 5, ("--hint",))
uci_session()
serve_game()
print("frontends through the binary ok")
