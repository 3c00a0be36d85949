"""Positions for the test pictures: real ones from the shared data and random legal placements.

Every position is returned with Red to move, as the reader reports it: a position given with
Black to move is turned into the same position seen from the other side (colours swapped,
board turned half round), which is as legal as the original.
"""

import json
import re
from pathlib import Path

FILES = "abcdefghi"


def board_of(fen):
    """The 10×9 grid of a FEN's placement, row 0 = rank 9 (Black's back rank)."""
    rows = fen.split()[0].split("/")
    if len(rows) != 10:
        raise ValueError(f"FEN {fen!r}: {len(rows)} ranks, expected 10")
    grid = []
    for row in rows:
        cells = []
        for ch in row:
            if ch.isdigit():
                cells.extend([None] * int(ch))
            else:
                cells.append(ch)
        if len(cells) != 9:
            raise ValueError(f"FEN {fen!r}: rank {row!r} has {len(cells)} files")
        grid.append(cells)
    return grid


def fen_of(grid):
    rows = []
    for cells in grid:
        out, empty = "", 0
        for c in cells:
            if c is None:
                empty += 1
            else:
                if empty:
                    out += str(empty)
                    empty = 0
                out += c
        if empty:
            out += str(empty)
        rows.append(out)
    return "/".join(rows) + " w - - 0 1"


def rotated(grid):
    """The grid turned half round (what a flipped view shows, read top-left first)."""
    return [list(reversed(r)) for r in reversed(grid)]


def red_to_move(fen):
    parts = fen.split()
    grid = board_of(fen)
    if len(parts) > 1 and parts[1] == "b":
        grid = [[None if c is None else c.swapcase() for c in r] for r in rotated(grid)]
    return fen_of(grid)


def from_shared(data_dir):
    data = Path(data_dir)
    fens = []
    text = (data / "puzzles/shiqingyaqu551.fen").read_text(encoding="utf-8-sig")
    fens += re.findall(r'\[FEN "([^"]+)"\]', text)
    fens += [p["fen"] for p in json.loads((data / "puzzles/wukong_mates_public.json").read_text())]
    for line in (data / "puzzles/xqwlight_FUNNY.epd.utf8").read_text(encoding="utf-8").splitlines():
        if line.strip():
            fens.append(line.split(";")[0].strip())
    for line in (data / "openings/match_openings.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            fens.append(line.split("\t")[0])
    out = []
    for f in fens:
        try:
            out.append(red_to_move(f))
        except ValueError:
            pass
    return out


# Random legal placements: every piece on a point it can reach, the generals not facing,
# Black not in check (Red is to move).
def _own_rank(red, r):
    """Rank counted from the owner's back rank (0..9) -> grid row."""
    return 9 - r if red else r


def _points(kind, red):
    pts = []
    if kind == "k":
        pts = [(r, f) for r in range(3) for f in range(3, 6)]
    elif kind == "a":
        pts = [(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)]
    elif kind == "b":
        pts = [(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)]
    elif kind == "p":
        pts = [(r, f) for r in (3, 4) for f in (0, 2, 4, 6, 8)]
        pts += [(r, f) for r in range(5, 10) for f in range(9)]
    else:
        pts = [(r, f) for r in range(10) for f in range(9)]
    return [(_own_rank(red, r), f) for r, f in pts]


def _attacked_by_red(grid, row, col):
    def at(r, f):
        return grid[r][f] if 0 <= r < 10 and 0 <= f < 9 else None

    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f, screens = row + dr, col + df, 0
        while 0 <= r < 10 and 0 <= f < 9:
            c = grid[r][f]
            if c is not None:
                if screens == 0 and c in "RK" and (c == "R" or df == 0):
                    return True
                if screens == 1 and c == "C":
                    return True
                screens += 1
                if screens > 1:
                    break
            r, f = r + dr, f + df
    for dr, df, lr, lf in (
        (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0),
        (1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
    ):
        # a horse at (row+dr, col+df) reaches us unless its leg next to itself is blocked
        hr, hf = row + dr, col + df
        if at(hr, hf) == "N" and at(hr - lr, hf - lf) is None:
            return True
    # red pawns move up (towards row 0); across the river (rows 0..4) also sideways
    if at(row + 1, col) == "P":
        return True
    if row <= 4 and (at(row, col - 1) == "P" or at(row, col + 1) == "P"):
        return True
    return False


def random_position(rng):
    while True:
        grid = [[None] * 9 for _ in range(10)]
        taken = set()
        for red in (True, False):
            counts = {"k": 1, "a": rng.randint(0, 2), "b": rng.randint(0, 2),
                      "r": rng.randint(0, 2), "n": rng.randint(0, 2),
                      "c": rng.randint(0, 2), "p": rng.randint(0, 5)}
            for kind, n in counts.items():
                free = [p for p in _points(kind, red) if p not in taken]
                for (r, f) in rng.sample(free, min(n, len(free))):
                    grid[r][f] = kind.upper() if red else kind
                    taken.add((r, f))
        kr = [(r, f) for r in range(10) for f in range(9) if grid[r][f] == "K"][0]
        kb = [(r, f) for r in range(10) for f in range(9) if grid[r][f] == "k"][0]
        if kr[1] == kb[1] and all(grid[r][kr[1]] is None for r in range(kb[0] + 1, kr[0])):
            continue
        if _attacked_by_red(grid, *kb):
            continue
        return fen_of(grid)


def pool(data_dir, rng, n_random):
    fens = list(dict.fromkeys(from_shared(data_dir)))
    fens += [random_position(rng) for _ in range(n_random)]
    rng.shuffle(fens)
    return fens
