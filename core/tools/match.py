#!/usr/bin/env python3
"""Minimal rule-aware Xiangqi engine-vs-engine match runner (UCI / UCCI engines over stdin/stdout).
Legality and game end are judged by pyffish (Fairy-Stockfish rules: checkmate, stalemate = loss,
flying general, perpetual check / AXF-style chase via is_optional_game_end, 3-fold, 50-move rule).

Engine spec (repeat --engine twice), comma-separated key=value:
  name=FSF,cmd=bin/fairy-stockfish-largeboards-bmi2,proto=uci,ranks=1,opt.UCI_Variant=xiangqi,opt.Hash=16
  ranks=1 : engine writes xiangqi ranks 1..10 (Fairy-Stockfish in UCI mode, pyffish)
  ranks=0 : engine writes ranks 0..9 (Pikafish, ElephantEye/UCCI, most xiangqi GUIs)
  nodes=N : (UCI) search a fixed number of nodes a move instead of --movetime (self-play
            tests that must not depend on the machine's load)
  movetime=MS : this engine's time a move instead of --movetime (a time-odds match: how
            much would twice the speed be worth?)
Chuhe's copy of ../shared/tools/match.py: adds nodes=, movetime=, --openings (an opening
suite such as ../shared/data/openings/match_openings.tsv, each opening twice with colours
swapped) and --skip, and prints the running score after each game.
Example:
  venv/bin/python match.py --engine name=A,cmd=bin/fairy-stockfish-largeboards-bmi2,ranks=1,opt.UCI_Variant=xiangqi \
      --engine name=B,cmd=bin/fairy-stockfish-largeboards-bmi2,ranks=1,opt.UCI_Variant=xiangqi --games 2 --movetime 100
"""
import argparse, os, sys, time, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pyffish as sf
from ucidriver import Engine

V = "xiangqi"
MATE = sf.VALUE_MATE

def parse_spec(s):
    d = {"proto": "uci", "ranks": "1", "opts": {}}
    for kv in s.split(","):
        k, v = kv.split("=", 1)
        if k.startswith("opt."):
            d["opts"][k[4:]] = v
        else:
            d[k] = v
    d["ranks"] = int(d["ranks"])
    if "movetime" in d:
        d["movetime"] = int(d["movetime"])
    d.setdefault("name", os.path.basename(d["cmd"]))
    return d

def to_engine(move, base):      # pyffish (1..10) -> engine notation
    if base == 1:
        return move
    import re
    a, r1, b, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move).groups()
    return f"{a}{int(r1) - 1}{b}{int(r2) - 1}"

def from_engine(move, base):    # engine notation -> pyffish (1..10)
    if base == 1:
        return move
    import re
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", move)
    if not m:
        return move
    a, r1, b, r2 = m.groups()
    return f"{a}{int(r1) + 1}{b}{int(r2) + 1}"

class Player:
    def __init__(self, spec):
        self.spec = spec
        self.e = Engine(spec["cmd"].split(), name=spec["name"])
        if spec["proto"] == "ucci":
            self.e.uci("ucci")
            for k, v in spec["opts"].items():
                self.e.send(f"setoption {k} {v}")
        else:
            self.e.uci("uci")
            for k, v in spec["opts"].items():
                self.e.send(f"setoption name {k} value {v}")
        self.e.isready()

    def newgame(self):
        self.e.send("setoption newgame" if self.spec["proto"] == "ucci" else "ucinewgame")
        self.e.isready()

    def movetime(self, default_ms):
        """This engine's time a move: its own movetime= if given, else the match's."""
        return self.spec.get("movetime", default_ms)

    def bestmove(self, start_fen, moves, movetime_ms):
        base = self.spec["ranks"]
        movetime_ms = self.movetime(movetime_ms)
        mv = " ".join(to_engine(m, base) for m in moves)
        self.e.send(f"position fen {start_fen}" + (f" moves {mv}" if moves else ""))
        go = f"go time {movetime_ms} movestogo 1" if self.spec["proto"] == "ucci" else f"go movetime {movetime_ms}"
        if "nodes" in self.spec:
            go = f"go nodes {self.spec['nodes']}"
        t0 = time.monotonic()
        self.e.send(go)
        lines, line, t1 = self.e.read_until(lambda l: l.startswith(("bestmove", "nobestmove")), timeout=movetime_ms / 1000 + 30)
        score = None
        for l in reversed(lines):
            if " score " in l:
                f = l.split()
                i = f.index("score")
                score = " ".join(f[i + 1:i + 3]) if f[i + 1] in ("cp", "mate") else f[i + 1]
                break
        f = line.split()
        move = f[1] if len(f) > 1 and f[0] == "bestmove" else None
        return (from_engine(move, base) if move else None), (t1 - t0) * 1000, score

    def quit(self):
        self.e.quit()

def play_game(red, black, start_fen, movetime, max_plies, time_margin_ms, log):
    moves, times = [], []
    for p in (red, black):
        p.newgame()
    players = [red, black] if start_fen.split()[1] == "w" else [black, red]
    result, reason = None, None
    while True:
        stm = len(moves) % 2          # 0: first mover
        legal = sf.legal_moves(V, start_fen, moves)
        if not legal:
            v = sf.game_result(V, start_fen, moves)   # from side-to-move's view
            result, reason = (stm if v > 0 else 1 - stm if v < 0 else None), "checkmate/stalemate (no legal moves)"
            break
        end, v = sf.is_immediate_game_end(V, start_fen, moves)
        if not end:
            end, v = sf.is_optional_game_end(V, start_fen, moves)
            if end:
                clock = int(sf.get_fen(V, start_fen, moves).split()[4])
                kind = ("draw by move-count rule (50 moves without capture)" if v == 0 and clock >= 100
                        else "draw by repetition" if v == 0
                        else "repetition with perpetual check/chase: rule win for the side " + ("to move" if v > 0 else "not to move"))
        else:
            kind = "immediate game end"
        if end:
            result, reason = (stm if v > 0 else 1 - stm if v < 0 else None), kind
            break
        if len(moves) >= max_plies:
            result, reason = None, f"adjudicated draw at {max_plies} plies"
            break
        p = players[stm]
        move, ms, score = p.bestmove(start_fen, moves, movetime)
        times.append(round(ms))
        if move is None or move not in legal:
            result, reason = 1 - stm, f"{p.spec['name']} played illegal/no move {move!r}"
            break
        if ms > p.movetime(movetime) + time_margin_ms and "nodes" not in p.spec:
            result, reason = 1 - stm, f"{p.spec['name']} exceeded time ({ms:.0f} ms)"
            break
        moves.append(move)
        log.write(f"{len(moves):3d} {p.spec['name']:10s} {move:6s} {ms:6.0f}ms score={score}\n")
    winner = None if result is None else players[result].spec["name"]
    return {"start_fen": start_fen, "red": red.spec["name"], "black": black.spec["name"],
            "moves": moves, "wxf": sf.get_san_moves(V, start_fen, moves, False, sf.NOTATION_XIANGQI_WXF),
            "winner": winner, "reason": reason, "plies": len(moves),
            "final_fen": sf.get_fen(V, start_fen, moves), "move_ms": times}

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="append", required=True)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=100, help="ms per move")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--time-margin", type=int, default=1000, help="ms over movetime before forfeiting")
    ap.add_argument("--fen", action="append", help="start FEN(s); default: start position")
    ap.add_argument("--out", default="results/match")
    ap.add_argument("--openings", help="TSV with a fen column (header line); each opening played twice, colours swapped")
    ap.add_argument("--skip", type=int, default=0, help="start at this opening index")
    a = ap.parse_args()
    specs = [parse_spec(s) for s in a.engine]
    assert len(specs) == 2
    players = [Player(s) for s in specs]
    fens = a.fen or [sf.start_fen(V)]
    if a.openings:
        rows = [l.rstrip("\n").split("\t") for l in open(a.openings)][1:]
        fens = [r[0] for r in rows if r and r[0]]
        fens = fens[a.skip:] + fens[:a.skip]
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    games, score = [], {s["name"]: 0.0 for s in specs}
    with open(a.out + ".log", "w") as log:
        for g in range(a.games):
            fen = fens[(g // 2) % len(fens)]
            red, black = (players[0], players[1]) if g % 2 == 0 else (players[1], players[0])
            log.write(f"# game {g + 1}: {red.spec['name']} (red) vs {black.spec['name']} (black), {fen}\n")
            r = play_game(red, black, fen, a.movetime, a.max_plies, a.time_margin, log)
            games.append(r)
            if r["winner"] is None:
                for s in specs:
                    score[s["name"]] += 0.5
            else:
                score[r["winner"]] += 1
            res = "1/2-1/2" if r["winner"] is None else ("1-0" if r["winner"] == r["red"] else "0-1")
            n0 = specs[0]["name"]
            wdl = [sum(1 for x in games if x["winner"] == n0), sum(1 for x in games if x["winner"] is None)]
            wdl.append(len(games) - wdl[0] - wdl[1])
            print(f"game {g + 1}: {r['red']} vs {r['black']}: {res} ({r['reason']}), {r['plies']} plies, "
                  f"max move time {max(r['move_ms'] or [0])} ms | {n0} +{wdl[0]} ={wdl[1]} -{wdl[2]} "
                  f"{100 * score[n0] / len(games):.1f}%", flush=True)
            with open(a.out + ".json", "w") as f:
                json.dump({"engines": specs, "movetime_ms": a.movetime, "games": games, "score": score}, f)
    for p in players:
        p.quit()
    with open(a.out + ".json", "w") as f:
        json.dump({"engines": specs, "movetime_ms": a.movetime, "games": games, "score": score}, f, indent=1)
    print("score:", score)

if __name__ == "__main__":
    main()
