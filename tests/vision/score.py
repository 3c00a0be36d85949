#!/usr/bin/env python3
"""Scores `chuhe-engine recognize --json` on the test sets that make_pictures.py makes.

For each set and variant (clean, jpeg40, scan) it prints: boards read exactly (every one of
the 90 points right), points right (a picture that gave an error counts 0 of 90), of the
boards read but not exactly the share whose wrong points are all marked uncertain, flips
detected right, errors; and for the 1600×1000 clean screenshots the median wall time of
single-picture runs (`taskset -c 0`, one core; process start included, and printed apart as
the time to read a 16×16 blank picture).

The edge set is listed picture by picture: what came back against what is there.

--keep FILE writes every picture's reading and wrong points; --against FILE (a kept run)
lists the pictures whose wrong points changed since, so a change is judged picture by picture.
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import positions  # noqa: E402

VARIANTS = [("clean", "png"), ("jpeg40", "jpg"), ("scan", "png")]


def squares(fen):
    """The 90 points as {iccs: piece or None}."""
    grid = positions.board_of(fen)
    return {f"{positions.FILES[f]}{9 - r}": grid[r][f] for r in range(10) for f in range(9)}


def recognize(engine, files, batch, timeout):
    """Runs the reader on files in batches; returns {path: parsed object or {"error": ...}}."""
    out = {}
    for i in range(0, len(files), batch):
        chunk = [str(f) for f in files[i:i + batch]]
        try:
            p = subprocess.run([engine, "recognize", *chunk, "--json"], capture_output=True,
                               text=True, timeout=timeout)
            lines = p.stdout.splitlines()
        except subprocess.TimeoutExpired:
            lines = []
        except OSError as e:
            sys.exit(f"cannot run {engine}: {e}")
        got, in_order = {}, []
        for line in lines:
            try:
                obj = json.loads(line)
                got[str(obj["file"])] = obj
                in_order.append(obj)
            except (ValueError, KeyError, TypeError):
                in_order.append({"error": f"not a JSON object with a file: {line[:80]}"})
        for k, f in enumerate(chunk):
            if f in got:
                out[f] = got[f]
            elif len(in_order) == len(chunk):
                # one line a picture, in input order: the reader may spell the path its own way
                out[f] = in_order[k]
            else:
                out[f] = {"error": "no line for this file (crash or timeout)"}
    return out


def wrong_squares(lab, res):
    """The points (ICCS) where the reading `res` differs from the label; ValueError when the
    reading's FEN is unreadable."""
    got = squares(res["fen"])
    want = squares(lab["fen"])
    return {k for k in want if want[k] != got[k]}


def score_boards(labels):
    n = len(labels)
    exact = points = errors = flips_right = read = 0
    not_exact = covered = 0
    messages = {}
    for lab, res in labels:
        if "error" in res or "fen" not in res:
            errors += 1
            msg = str(res.get("error", "no fen"))
            messages[msg] = messages.get(msg, 0) + 1
            continue
        read += 1
        try:
            wrong = wrong_squares(lab, res)
        except ValueError:
            errors += 1
            messages["unreadable FEN in output"] = messages.get("unreadable FEN in output", 0) + 1
            continue
        points += 90 - len(wrong)
        if not wrong:
            exact += 1
        else:
            not_exact += 1
            if wrong <= set(res.get("uncertain", [])):
                covered += 1
        if bool(res.get("flipped")) == bool(lab["flipped"]):
            flips_right += 1

    def pct(a, b):
        return f"{100.0 * a / b:6.2f} %" if b else "     - "

    return {
        "boards": n, "exact": pct(exact, n), "points": pct(points, 90 * n),
        "wrong_all_uncertain": f"{pct(covered, not_exact)} of {not_exact}",
        "flips": f"{pct(flips_right, read)} of {read}", "errors": errors, "messages": messages,
    }


def time_single(engine, files, runs):
    times = []
    for f in files[:runs]:
        t = time.perf_counter()
        subprocess.run(["taskset", "-c", "0", engine, "recognize", str(f), "--json"],
                       capture_output=True, timeout=120)
        times.append(time.perf_counter() - t)
    return statistics.median(times) if times else None


def blank_start(engine):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "blank.png"
        # a 16×16 white PNG written by hand, so that the scorer needs no imaging library
        import struct
        import zlib
        raw = b"".join(b"\x00" + b"\xff" * 48 for _ in range(16))

        def chunk(kind, data):
            c = kind + data
            return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c))

        p.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
                      + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
        return time_single(engine, [p] * 5, 5)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets-dir", default="/work/vision-sets")
    ap.add_argument("--engine", default="target/release/chuhe-engine")
    ap.add_argument("--sets", default=None, help="comma-separated set names (default: all found)")
    ap.add_argument("--limit", type=int, default=0, help="score only the first N pictures of a set")
    ap.add_argument("--batch", type=int, default=50, help="pictures per recognize run")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per recognize run")
    ap.add_argument("--timing-runs", type=int, default=30,
                    help="single-picture runs per set for the median time (0: none)")
    ap.add_argument("--by-style", action="store_true", help="also the figures of every style")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--keep", help="write every picture's reading and wrong points to this file "
                                   "(JSON lines), for --against")
    ap.add_argument("--against", help="a --keep file of an earlier run: list the pictures whose "
                                      "wrong points changed since")
    args = ap.parse_args()
    # Read before the run, so that a wrong file stops it at once rather than after it.
    before = kept_run(args.against) if args.against else None
    kept = []
    engine = shutil.which(args.engine) or args.engine
    root = Path(args.sets_dir)
    names = args.sets.split(",") if args.sets else sorted(
        p.name for p in root.iterdir() if (p / "labels.jsonl").exists())
    report = {}
    totals = {v: [] for v, _ in VARIANTS}
    for name in names:
        labels = [json.loads(l) for l in (root / name / "labels.jsonl").read_text(encoding="utf-8").splitlines() if l]
        if args.limit:
            labels = labels[: args.limit]
        if name == "edge":
            score_edge(engine, root / name, labels, args)
            continue
        report[name] = {}
        for variant, ext in VARIANTS:
            files = [root / name / variant / f"{lab['id']}.{ext}" for lab in labels]
            res = recognize(engine, files, args.batch, args.timeout)
            pairs = [(lab, res[str(f)]) for lab, f in zip(labels, files)]
            totals[variant].extend(pairs)
            kept.extend({"set": name, "variant": variant, "id": lab["id"], "style": lab["style"],
                         "wrong": wrong_points(lab, r), "fen": r.get("fen"), "error": r.get("error")}
                        for lab, r in pairs)
            s = score_boards(pairs)
            report[name][variant] = s
            print(f"{name:15} {variant:7} boards {s['boards']:4}  exact {s['exact']}  points {s['points']}  "
                  f"wrong-all-uncertain {s['wrong_all_uncertain']}  flips {s['flips']}  errors {s['errors']}")
            for msg, k in sorted(s["messages"].items(), key=lambda x: -x[1])[:3]:
                print(f"{'':24}{k:4} × error: {msg}")
            if args.by_style:
                styles = sorted({lab["style"] for lab, _ in pairs})
                for st in styles:
                    sub = score_boards([(lab, r) for lab, r in pairs if lab["style"] == st])
                    print(f"{'':24}{st[:60]:60} boards {sub['boards']:3}  exact {sub['exact']}  "
                          f"points {sub['points']}  errors {sub['errors']}")
        if args.timing_runs:
            shots = [root / name / "clean" / f"{lab['id']}.png" for lab in labels
                     if lab.get("screenshot") and lab["size"] == [1600, 1000]]
            med = time_single(engine, shots, args.timing_runs)
            report[name]["median_ms_1600x1000"] = None if med is None else round(1000 * med, 1)
            if med is not None:
                print(f"{name:15} median {1000 * med:.0f} ms a 1600×1000 screenshot "
                      f"({min(len(shots), args.timing_runs)} single runs, one core)")
    for variant, pairs in totals.items():
        if pairs:
            s = score_boards(pairs)
            report.setdefault("all", {})[variant] = s
            print(f"{'all':15} {variant:7} boards {s['boards']:4}  exact {s['exact']}  points {s['points']}  "
                  f"wrong-all-uncertain {s['wrong_all_uncertain']}  flips {s['flips']}  errors {s['errors']}")
    if args.timing_runs:
        b = blank_start(engine)
        report["start_ms_blank_16x16"] = round(1000 * b, 1)
        print(f"process start and a 16×16 blank picture: {1000 * b:.0f} ms (median of 5)")
    if args.json:
        Path(args.json).write_text(json.dumps(report, ensure_ascii=False, indent=1))
    if args.keep:
        Path(args.keep).write_text("".join(json.dumps(k, ensure_ascii=False) + "\n" for k in kept),
                                   encoding="utf-8")
    if args.against:
        compare(args.against, before, kept)


def wrong_points(lab, res):
    """How many of the 90 points the reading got wrong (all 90 when it gave no board)."""
    try:
        return len(wrong_squares(lab, res))
    except (KeyError, ValueError):
        return 90


def kept_run(path):
    """The wrong points of every picture of a --keep file, by (set, variant, id)."""
    before = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line:
            k = json.loads(line)
            before[(k["set"], k["variant"], k["id"])] = k["wrong"]
    return before


def compare(path, before, kept):
    """Prints the pictures whose wrong points differ from those of the kept run `before`
    (read from `path`)."""
    better = worse = 0
    for k in kept:
        was = before.get((k["set"], k["variant"], k["id"]))
        if was is None or was == k["wrong"]:
            continue
        better += k["wrong"] < was
        worse += k["wrong"] > was
        tag = "better" if k["wrong"] < was else "WORSE"
        print(f"{tag:6} {k['set']:15} {k['variant']:7} {k['id']:20} {k['style'][:50]:50} "
              f"{was:3} -> {k['wrong']:3} wrong")
    print(f"against {path}: {better} pictures better, {worse} worse")


def score_edge(engine, folder, labels, args):
    for variant, ext in VARIANTS:
        files = [folder / variant / f"{lab['id']}.{ext}" for lab in labels]
        res = recognize(engine, files, args.batch, args.timeout)
        for lab, f in zip(labels, files):
            r = res[str(f)]
            want = len(lab["fens"])
            if "error" in r:
                got = f"error: {r['error']}"
            else:
                got = str(r.get("fen", "?"))
                try:
                    if any(squares(got) == squares(x) for x in lab["fens"]):
                        got += " (one of the boards, exact)"
                except ValueError:
                    got += " (unreadable FEN)"
            print(f"edge {variant:7} {lab['id']:28} boards {want}: {got}")


if __name__ == "__main__":
    main()
