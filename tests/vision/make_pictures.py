#!/usr/bin/env python3
"""Makes the picture reader's test sets: boards drawn by programs other than Chuhe.

Sets (see README.md beside this file for what each needs installed or fetched):
  xiangqi_setup   the `xiangqi-setup` command (PyPI), every board theme × piece theme, SVG
                  rasterised by rsvg-convert, put into a screenshot-like frame or cut as a diagram
  xiangqiboardjs  the xiangqiboard.js widget (an exported checkout's docs/ folder) in a page of
                  our own, screenshotted by headless Chromium, its piece and board themes
  xqwlight        XQWLight's JavaScript board (an exported checkout's JavaScript/ folder), its
                  wooden board and pieces scaled by CSS, screenshotted by headless Chromium
  pillow          boards drawn here with Pillow and the distribution's CJK fonts, in styles
                  unlike Chuhe's: black-and-white print, pieces in the cells of a chequer,
                  Western letters, flat dark
  edge            a few pictures for the edge cases: no board, two boards, a book page

Each set gets clean/ (PNG), jpeg40/ (JPEG quality 40 of the clean picture) and scan/ (noise,
blur, a ±0.5–1.5° rotation; grey for print styles, and half of those 360 px wide or more
thresholded to black and white with specks instead of noise) and labels.jsonl, one JSON
object a picture: {"id", "fen" (Red to move), "flipped", "style", "size": [w, h],
"screenshot": 1600×1000 frame or not, "board": [x, y, w, h] of the board's picture in the clean
file or null}. The edge set's labels have "fens" (a list, in reading order) instead of "fen".
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import positions  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SCREEN = (1600, 1000)

FONT_FILES = {
    "ukai": "/usr/share/fonts/truetype/arphic/ukai.ttc",
    "uming": "/usr/share/fonts/truetype/arphic/uming.ttc",
    "wqy-zenhei": "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "wqy-microhei": "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "noto-sans": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "noto-sans-bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "noto-serif": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "noto-serif-bold": "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
}


def fonts_available():
    return {k: v for k, v in FONT_FILES.items() if os.path.exists(v)}


def font(name, size):
    return ImageFont.truetype(fonts_available()[name], size)


# ---------------------------------------------------------------- frames around a board

MOVES = ["炮二平五", "馬8進7", "馬二進三", "車9平8", "車一平二", "卒7進1", "兵七進一",
         "馬2進3", "炮八平六", "象3進5", "仕四進五", "士4進5", "相三進五", "砲8平9"]
WORDS = ["對局", "紅方", "黑方", "分析", "棋譜", "評論", "第一局", "布局", "殘局", "中局",
         "Analysis", "Moves", "Engine", "depth 18", "score +0.35", "Game 12", "Round 3"]


def random_text_lines(rng, n):
    lines = []
    for i in range(n):
        if rng.random() < 0.5:
            lines.append(f"{i + 1}. {rng.choice(MOVES)}  {rng.choice(MOVES)}")
        else:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6))))
    return lines


def screen_frame(rng, board_size):
    """A 1600×1000 application- or page-like picture and where a board of board_size goes."""
    bw, bh = board_size
    dark = rng.random() < 0.3
    bg = tuple(rng.randint(25, 60) for _ in range(3)) if dark else tuple(rng.randint(200, 255) for _ in range(3))
    fg = (220, 220, 220) if dark else (30, 30, 30)
    img = Image.new("RGB", SCREEN, bg)
    d = ImageDraw.Draw(img)
    title_h = rng.choice([0, 28, 36])
    if title_h:
        d.rectangle([0, 0, SCREEN[0], title_h], fill=tuple(max(0, c - 30) for c in bg))
        d.text((12, 6), rng.choice(["象棋 - 棋譜", "Xiangqi board", "棋盘 — 第3局", "XQ Viewer"]),
               font=font(rng.choice(list(fonts_available())), 16), fill=fg)
    x = rng.randint(20, max(20, SCREEN[0] - bw - 20))
    y = rng.randint(title_h + 10, max(title_h + 10, SCREEN[1] - bh - 20))
    # a text panel beside the board (left or right, wherever there is room)
    f = font(rng.choice(list(fonts_available())), rng.choice([14, 16, 18, 22]))
    if SCREEN[0] - (x + bw) > 260:
        px = x + bw + 40
    elif x > 260:
        px = 20
    else:
        px = None
    if px is not None:
        for i, line in enumerate(random_text_lines(rng, rng.randint(8, 30))):
            ty = title_h + 20 + i * (f.size + 8)
            if ty > SCREEN[1] - 30:
                break
            d.text((px, ty), line, font=f, fill=fg)
    return img, (x, y)


def diagram_frame(rng, board, caption):
    """A diagram cut from a page: the board with a margin and a caption under it."""
    bw, bh = board.size
    margin = rng.randint(8, 40)
    fsize = max(12, bw // 18)
    cap_h = fsize + 16
    page = tuple(rng.randint(235, 255) for _ in range(3))
    img = Image.new("RGB", (bw + 2 * margin, bh + 2 * margin + cap_h), page)
    img.paste(board, (margin, margin), board if board.mode == "RGBA" else None)
    d = ImageDraw.Draw(img)
    f = font(rng.choice(list(fonts_available())), fsize)
    tw = d.textlength(caption, font=f)
    d.text(((img.width - tw) / 2, margin + bh + 8), caption, font=f, fill=(20, 20, 20))
    return img, (margin, margin)


def place(rng, board, screenshot, caption):
    if screenshot:
        img, (x, y) = screen_frame(rng, board.size)
        img.paste(board, (x, y), board if board.mode == "RGBA" else None)
    else:
        img, (x, y) = diagram_frame(rng, board, caption)
    return img, [x, y, board.width, board.height]


CAPTIONS = ["第1局 七星聚會", "圖2 紅先勝", "第十五局 野馬操田", "例3 黑方先走", "紅先和",
            "Diagram 4: Red to play", "Problem 17", "第二十四局", "練習 8"]


def board_width(rng, screenshot):
    # boards from about 200 px up; screenshots keep the whole board inside 1000 px of height
    return rng.randint(200, 820) if screenshot else rng.randint(200, 620)


# ---------------------------------------------------------------- variants

def make_variants(clean_path, out_dir, name, rng, print_like, board_w):
    img = Image.open(clean_path).convert("RGB")
    (out_dir / "jpeg40").mkdir(parents=True, exist_ok=True)
    img.save(out_dir / "jpeg40" / f"{name}.jpg", quality=40)
    angle = rng.choice([-1, 1]) * rng.uniform(0.5, 1.5)
    fill = tuple(int(c) for c in np.asarray(img)[0, 0])
    s = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=fill)
    s = s.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.8)))
    noise = np.random.default_rng(rng.randrange(1 << 30))
    # grey and black and white only for print styles: in the others the two sides may
    # differ by colour alone (Western symbols, simplified characters on both sides)
    mode = "colour"
    if print_like:
        s = s.convert("L")
        mode = "grey"
    # black and white like a photocopy: thresholded, then specks; only for boards large
    # enough that a thresholded character stays legible to a person
    if print_like and board_w >= 360 and rng.random() < 0.5:
        a = np.where(np.asarray(s) > 140, 255, 0).astype(np.uint8)
        specks = noise.random(a.shape) < 0.002
        a[specks] = 255 - a[specks]
        s = Image.fromarray(a)
        mode = "bw"
    else:
        a = np.asarray(s).astype(np.float32)
        a += noise.normal(0, rng.uniform(5, 12), a.shape)
        s = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    (out_dir / "scan").mkdir(parents=True, exist_ok=True)
    s.save(out_dir / "scan" / f"{name}.png")
    return {"angle": round(angle, 3), "mode": mode}


# ---------------------------------------------------------------- set: xiangqi-setup

XQS_BOARDS = ["cambaluc_remake_nolegend", "cambaluc_remake_nolegend_nogap",
              "ccbridge_3_0_beta4_default_preview_remake", "clean_alpha", "clean_beta",
              "commons_xiangqi_board_2008", "commons_xiangqi_board_2008_bw_thin",
              "dhtmlxq_2014_remake", "latex_xq_remake", "minimal", "minimal_chinese",
              "minimal_chinese_arabic", "playok_2014_remake", "western_red_wine",
              "xiexie_2_5_0_remake_minimal"]
XQS_PIECES = ["ccbridge_3_0_beta4_default_preview_remake", "commons_xiangqi_pieces_print_2010",
              "commons_xiangqi_pieces_print_2010_bw_heavy", "euro_xiangqi_js",
              "euro_xiangqi_js_tricolor", "latex_xqlarge_2006_chinese_autotrace",
              "latex_xqlarge_2006_chinese_potrace", "playok_2014_chinese",
              "playok_2014_chinese_noshadow", "retro_simple"]


def render_xiangqi_setup(args, rng, fen, flipped, width, tmp):
    shown = positions.fen_of(positions.rotated(positions.board_of(fen))) if flipped else fen
    board = rng.choice(XQS_BOARDS)
    pieces = rng.choice(XQS_PIECES)
    (tmp / "in.fen").write_text(shown + "\n")
    subprocess.run([args.xiangqi_setup, "--board", board, "--pieces", pieces,
                    "--width-px", str(width), "--scale-pieces", f"{rng.uniform(0.8, 1.0):.2f}",
                    str(tmp / "in.fen"), str(tmp / "b.svg")],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["rsvg-convert", "-w", str(width), str(tmp / "b.svg"), "-o", str(tmp / "b.png")],
                   check=True)
    img = Image.open(tmp / "b.png").convert("RGBA")
    # a transparent board is shown on the page or window it sits in
    style = f"{board}+{pieces}"
    print_like = "print" in pieces or "latex" in pieces
    return img, style, print_like


# ---------------------------------------------------------------- sets drawn in Chromium

XQB_PIECES = ["graphic", "traditional", "wikimedia", "wikipedia"]
# the widget's two Wikimedia boards; its other original (Xiangqi_board.svg, with a wide frame of
# numbers) is not laid out for it: its grid misses the points the pieces are put on
XQB_BOARDS = ["img/xiangqiboards/wikimedia/xiangqiboard.svg",
              "img/xiangqiboards/original/wikimedia/xiangqiboard.svg"]

PAGE = """{doctype}<html><head><meta charset="utf-8">{head}
<style>
body {{ margin: 0; background: {bg}; color: {fg}; font-family: {family}; }}
#top {{ height: {top}px; background: {bar}; font-size: 20px; padding: 8px 16px; box-sizing: border-box; }}
#b {{ position: absolute; left: {x}px; top: {y}px; width: {w}px; }}
#side {{ position: absolute; left: {sx}px; top: {sy}px; width: 300px; font-size: {fs}px; line-height: 1.6; }}
</style></head><body>
<div id="top">{title}</div><div id="b">{inner}</div><div id="side">{side}</div>
{script}</body></html>
"""

# xiangqiboard.js: our page loads the widget's own files from its docs/ folder
XQB_HEAD = '<link rel="stylesheet" href="css/xiangqiboard.min.css"/>'
XQB_SCRIPT = """<script src="js/jquery.min.js"></script><script src="js/xiangqiboard.min.js"></script>
<script>Xiangqiboard('b', {{ position: '{fen}', orientation: '{orient}', showNotation: {notation},
  pieceTheme: 'img/xiangqipieces/{pieces}/{{piece}}.svg', boardTheme: '{board}' }});</script>"""

# XQWLight's JavaScript board (521×577 px), scaled by CSS; a flipped view is its board with
# the computer playing Red
XQW_SIZE = (521, 577)
XQW_SCRIPT = """<script src="position.js"></script><script src="board.js"></script>
<script>var c = document.getElementById('c');
var board = new Board(c, 'images/', 'sounds/'); board.sound = false;
board.computer = {computer}; board.pos.fromFen('{fen}'); board.flushBoard();</script>"""


def render_in_chromium(args, rng, kind, fen, flipped, width, screenshot, caption, tmp, out_png):
    if kind == "xiangqiboardjs":
        folder = Path(args.xiangqiboardjs).resolve()
        pieces, board = rng.choice(XQB_PIECES), rng.choice(XQB_BOARDS)
        bh = int(width * 10 / 9) + 4  # the widget is 10/9 as high as wide, plus its border
        head, inner = XQB_HEAD, ""
        script = XQB_SCRIPT.format(fen=fen.split()[0], orient="black" if flipped else "red",
                                   notation="true" if rng.random() < 0.5 else "false",
                                   pieces=pieces, board=board)
        style = f"{board.removeprefix('img/xiangqiboards/')}+{pieces}"
        box_w = width + 4
    else:
        folder = Path(args.xqwlight).resolve()
        scale = width / XQW_SIZE[0]
        bh = int(XQW_SIZE[1] * scale)
        head = ""
        inner = f'<div id="c" style="transform: scale({scale:.4f}); transform-origin: 0 0"></div>'
        script = XQW_SCRIPT.format(computer=0 if flipped else 1, fen=fen)
        style = "xqwlight"
        box_w = width
    dark = rng.random() < 0.3
    top = rng.choice([0, 40, 56])
    if screenshot:
        x = rng.randint(10, SCREEN[0] - width - 20)
        y = rng.randint(top + 10, max(top + 10, SCREEN[1] - bh - 20))
        sx = x + width + 40 if SCREEN[0] - (x + width) > 360 else (20 if x > 340 else SCREEN[0] + 10)
        sy = top + 20
        size = SCREEN
        side = "<br>".join(random_text_lines(rng, rng.randint(5, 25)))
    else:
        top, x, y, sx, sy = 0, 16, 16, 16, bh + 30
        size = (width + 36, bh + 80)
        side = caption
    page = PAGE.format(
        # XQWLight sets unitless positions, which only quirks mode (no doctype) reads
        doctype="" if kind == "xqwlight" else "<!doctype html>",
        head=head, inner=inner, script=script,
        bg="#2b2b30" if dark else rng.choice(["#ffffff", "#f4f1ea", "#e8ecef", "#fafafa"]),
        fg="#ddd" if dark else "#222", bar="#444" if dark else rng.choice(["#c33", "#357", "#ddd"]),
        family=rng.choice(["sans-serif", "serif", "'Noto Sans CJK SC'", "'AR PL UKai TW'"]),
        top=top, x=x, y=y, w=width, sx=sx, sy=sy, fs=rng.choice([14, 16, 18]),
        title=rng.choice(["象棋網 · 對局", "Xiangqi puzzles", "棋譜 第12局", ""]) if screenshot else "",
        side=side)
    page_path = folder / f"_vision_{os.getpid()}.html"
    page_path.write_text(page, encoding="utf-8")
    try:
        subprocess.run(
            [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--hide-scrollbars", "--mute-audio", f"--user-data-dir={tmp / 'chrome'}",
             f"--screenshot={out_png}", f"--window-size={size[0]},{size[1]}",
             "--virtual-time-budget=2000", page_path.as_uri()],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    finally:
        page_path.unlink(missing_ok=True)
    return style, [x, y, box_w, bh]


# ---------------------------------------------------------------- set: pillow (our own drawing)

RED_T = {"K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵"}
BLACK_T = {"k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒"}
RED_S = {"K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵"}
BLACK_S = {"k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "炮", "p": "卒"}
BLACK_ALT = {"c": "包", "n": "馬", "r": "車"}
LETTERS = {"k": "K", "a": "A", "b": "E", "n": "H", "r": "R", "c": "C", "p": "P"}

PIL_STYLES = ["print", "chequer", "letters", "flat"]


def pillow_board(rng, grid, width, style):
    """Draws grid (row 0 at the top of the picture) in one of our styles; returns RGBA."""
    ss = 2  # drawn at twice the size and reduced, for smooth edges
    W = width * ss
    chequer = style == "chequer"
    cols, rows = (9, 10) if chequer else (8, 9)
    m = W * rng.uniform(0.05, 0.09)
    cell = (W - 2 * m) / cols
    H = int(2 * m + rows * cell)
    names = list(fonts_available())
    fname = rng.choice(["ukai", "uming", "noto-serif-bold", "noto-sans-bold", "wqy-zenhei"]
                       if style != "letters" else ["noto-sans-bold", "wqy-microhei", "noto-serif-bold"])
    fname = fname if fname in names else names[0]
    traditional = rng.random() < 0.5
    if style == "print":
        bg, line, red, black = (255, 255, 255, 255), (0, 0, 0), (0, 0, 0), (0, 0, 0)
        lw = max(1, int(ss * rng.uniform(0.8, 1.6)))
    elif style == "chequer":
        bg = (rng.randint(230, 250), rng.randint(215, 235), rng.randint(180, 200), 255)
        line, red, black = (90, 60, 30), (200, 20, 30), (20, 20, 20)
        lw = ss
    elif style == "letters":
        bg = (rng.randint(240, 255), rng.randint(240, 255), rng.randint(225, 245), 255)
        line, red, black = (60, 60, 60), (210, 40, 40), (30, 30, 120)
        lw = 2 * ss
    else:  # flat dark
        bg = (rng.randint(30, 50), rng.randint(50, 70), rng.randint(70, 95), 255)
        line, red, black = (200, 210, 220), (235, 80, 70), (90, 200, 120)
        lw = 2 * ss
    img = Image.new("RGBA", (W, H), bg)
    d = ImageDraw.Draw(img)

    def pt(r, f):
        if chequer:
            return m + (f + 0.5) * cell, m + (r + 0.5) * cell
        return m + f * cell, m + r * cell

    if chequer:
        dark = tuple(max(0, c - 30) for c in bg[:3])
        for r in range(10):
            for f in range(9):
                if (r + f) % 2:
                    x0, y0 = m + f * cell, m + r * cell
                    d.rectangle([x0, y0, x0 + cell, y0 + cell], fill=dark)
        d.rectangle([m, m + 5 * cell - lw, W - m, m + 5 * cell + lw], fill=line)
        for r0 in (0, 7):  # palaces as outlined squares of 3×3 cells
            d.rectangle([m + 3 * cell, m + r0 * cell, m + 6 * cell, m + (r0 + 3) * cell],
                        outline=line, width=lw)
        d.rectangle([m, m, W - m, m + 10 * cell], outline=line, width=lw)
    else:
        for r in range(10):
            d.line([pt(r, 0), pt(r, 8)], fill=line, width=lw)
        for f in range(9):
            if f in (0, 8):
                d.line([pt(0, f), pt(9, f)], fill=line, width=lw)
            else:
                d.line([pt(0, f), pt(4, f)], fill=line, width=lw)
                d.line([pt(5, f), pt(9, f)], fill=line, width=lw)
        for r0 in (0, 7):
            d.line([pt(r0, 3), pt(r0 + 2, 5)], fill=line, width=lw)
            d.line([pt(r0, 5), pt(r0 + 2, 3)], fill=line, width=lw)
        if rng.random() < 0.7:
            fr = font(fname, int(cell * 0.55))
            for text, f0 in (("楚 河", 1.5), ("漢 界" if traditional else "汉 界", 5.5)):
                x, y = pt(4.5, f0)
                d.text((x, y), text, font=fr, fill=line, anchor="mm")
        if style == "print" and rng.random() < 0.5:
            d.rectangle([m - 0.25 * cell, m - 0.25 * cell, W - m + 0.25 * cell, m + 9.25 * cell],
                        outline=line, width=3 * lw)
    rad = cell * rng.uniform(0.40, 0.47)
    fp = font(fname, int(rad * (1.25 if style != "letters" else 1.3)))
    for r in range(10):
        for f in range(9):
            c = grid[r][f]
            if c is None:
                continue
            x, y = pt(r, f)
            is_red = c.isupper()
            if style == "letters":
                ch = LETTERS[c.lower()]
            elif traditional:
                ch = RED_T[c] if is_red else BLACK_T[c]
                if not is_red and c in BLACK_ALT and rng.random() < 0.3:
                    ch = BLACK_ALT[c]
            else:
                ch = RED_S[c] if is_red else BLACK_S[c]
            box = [x - rad, y - rad, x + rad, y + rad]
            if style == "print":
                if is_red:  # red pieces as outlines: white disc, double ring, black character
                    d.ellipse(box, fill=(255, 255, 255), outline=line, width=lw)
                    inner = rad * 0.82
                    d.ellipse([x - inner, y - inner, x + inner, y + inner], outline=line, width=lw)
                    d.text((x, y), ch, font=fp, fill=(0, 0, 0), anchor="mm")
                else:  # black pieces filled, white character
                    d.ellipse(box, fill=(0, 0, 0))
                    d.text((x, y), ch, font=fp, fill=(255, 255, 255), anchor="mm")
            elif style == "chequer":  # square tiles
                col = red if is_red else black
                d.rounded_rectangle(box, radius=rad * 0.25, fill=(250, 246, 232), outline=col, width=3 * ss)
                d.text((x, y), ch, font=fp, fill=col, anchor="mm")
            elif style == "letters":
                col = red if is_red else black
                d.ellipse(box, fill=col)
                d.text((x, y), ch, font=fp, fill=(255, 255, 255), anchor="mm")
            else:  # flat dark: ring of the side's colour, character of the same colour
                col = red if is_red else black
                d.ellipse(box, fill=(20, 24, 30), outline=col, width=3 * ss)
                d.text((x, y), ch, font=fp, fill=col, anchor="mm")
    return img.resize((width, int(H / ss)), Image.LANCZOS)


def render_pillow(rng, fen, flipped, width):
    grid = positions.board_of(fen)
    shown = positions.rotated(grid) if flipped else grid
    style = rng.choice(PIL_STYLES)
    return pillow_board(rng, shown, width, style), f"pillow-{style}", style == "print"


# ---------------------------------------------------------------- driver

def make_set(args, name, fens, rng):
    out = Path(args.out) / name
    if out.exists():
        shutil.rmtree(out)
    (out / "clean").mkdir(parents=True)
    labels = []
    with tempfile.TemporaryDirectory() as tmpd:
        tmp = Path(tmpd)
        for i, fen in enumerate(fens):
            pid = f"{name}-{i:04d}"
            screenshot = rng.random() < args.screenshot_share
            flipped = rng.random() < args.flipped_share
            width = board_width(rng, screenshot)
            caption = rng.choice(CAPTIONS)
            clean = out / "clean" / f"{pid}.png"
            if name in ("xiangqiboardjs", "xqwlight"):
                style, box = render_in_chromium(args, rng, name, fen, flipped, width, screenshot,
                                                caption, tmp, clean)
                print_like = False
            else:
                if name == "xiangqi_setup":
                    board, style, print_like = render_xiangqi_setup(args, rng, fen, flipped, width, tmp)
                else:
                    board, style, print_like = render_pillow(rng, fen, flipped, width)
                img, box = place(rng, board, screenshot, caption)
                img.save(clean)
            size = Image.open(clean).size
            scan = make_variants(clean, out, pid, rng, print_like, box[2])
            labels.append({"id": pid, "fen": fen, "flipped": flipped, "style": style,
                           "size": list(size), "screenshot": screenshot, "board": box,
                           "scan": scan})
            if (i + 1) % 25 == 0:
                print(f"{name}: {i + 1}/{len(fens)}", flush=True)
    with open(out / "labels.jsonl", "w", encoding="utf-8") as fh:
        for lab in labels:
            fh.write(json.dumps(lab, ensure_ascii=False) + "\n")


def make_edge(args, fens, rng):
    """No board (a gradient photo-like picture, a text page), two boards, a book page of 4."""
    out = Path(args.out) / "edge"
    if out.exists():
        shutil.rmtree(out)
    (out / "clean").mkdir(parents=True)
    labels = []
    # a photo-like gradient with soft blobs
    w, h = SCREEN
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.stack([120 + 80 * np.sin(xx / 300), 100 + 60 * np.cos(yy / 250), 140 + 50 * np.sin((xx + yy) / 400)], -1)
    a += np.random.default_rng(1).normal(0, 6, a.shape)
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(2)).save(
        out / "clean" / "no-board-gradient.png")
    labels.append({"id": "no-board-gradient", "fens": [], "size": [w, h]})
    # a page of text with a table grid (lines, but no board)
    page = Image.new("RGB", (1200, 1600), (252, 250, 245))
    d = ImageDraw.Draw(page)
    f = font("noto-serif", 26)
    for i, line in enumerate(random_text_lines(rng, 40)):
        d.text((80, 80 + i * 36), line, font=f, fill=(20, 20, 20))
    for k in range(7):
        d.line([(80, 1560 - k * 20 - 120), (1120, 1560 - k * 20 - 120)], fill=(0, 0, 0), width=2)
    page.save(out / "clean" / "no-board-text.png")
    labels.append({"id": "no-board-text", "fens": [], "size": list(page.size)})
    # two boards side by side in a screenshot
    img = Image.new("RGB", SCREEN, (240, 240, 240))
    pair = fens[:2]
    for k, fen in enumerate(pair):
        b = pillow_board(rng, positions.board_of(fen), 560, ["flat", "chequer"][k])
        img.paste(b, (100 + k * 760, 200), b)
    img.save(out / "clean" / "two-boards.png")
    labels.append({"id": "two-boards", "fens": pair, "size": list(img.size)})
    # book pages with 4 diagrams and captions, 2×2, read left to right, top to bottom
    for k, style in enumerate(["print", "xiangqi_setup"]):
        page = Image.new("RGB", (1240, 1754), (250, 248, 240))
        d = ImageDraw.Draw(page)
        d.text((620, 60), "第三章　殺法練習", font=font("noto-serif-bold", 40), fill=(0, 0, 0), anchor="mm")
        four = fens[2 + 4 * k: 6 + 4 * k]
        for j, fen in enumerate(four):
            x, y = 90 + (j % 2) * 560, 140 + (j // 2) * 780
            if style == "print":
                b = pillow_board(rng, positions.board_of(fen), 500, "print")
            else:
                with tempfile.TemporaryDirectory() as tmpd:
                    b, _, _ = render_xiangqi_setup(args, rng, fen, False, 500, Path(tmpd))
            page.paste(b, (x, y), b)
            d.text((x + 250, y + b.height + 30), f"第{j + 1}局　紅先勝", font=font("noto-serif", 28),
                   fill=(0, 0, 0), anchor="mm")
        name = f"book-page-4-{style}"
        page.save(out / "clean" / f"{name}.png")
        labels.append({"id": name, "fens": four, "size": list(page.size)})
    for lab in labels:
        make_variants(out / "clean" / f"{lab['id']}.png", out, lab["id"], rng, False, 500)
    with open(out / "labels.jsonl", "w", encoding="utf-8") as fh:
        for lab in labels:
            fh.write(json.dumps(lab, ensure_ascii=False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="/work/vision-sets", help="output folder (outside the repository)")
    ap.add_argument("--sets", default="xiangqi_setup,xiangqiboardjs,xqwlight,pillow,edge")
    ap.add_argument("--count", type=int, default=150, help="pictures per set")
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--data", default=str(REPO.parent / "shared" / "data"),
                    help="the shared data folder (positions)")
    ap.add_argument("--random-share", type=float, default=0.3,
                    help="share of random legal placements among the positions")
    ap.add_argument("--screenshot-share", type=float, default=0.6,
                    help="share of 1600×1000 screenshots (the rest are diagrams cut from a page)")
    ap.add_argument("--flipped-share", type=float, default=0.25)
    ap.add_argument("--xiangqi-setup", default=shutil.which("xiangqi-setup") or "xiangqi-setup")
    ap.add_argument("--xiangqiboardjs", default="/work/scratch-veval/xqbjs/docs",
                    help="the docs/ folder of an exported xiangqiboardjs checkout")
    ap.add_argument("--xqwlight", default="/work/scratch-veval/xqwlight/JavaScript",
                    help="the JavaScript/ folder of an exported XQWLight checkout")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    sets = [s for s in args.sets.split(",") if s]
    for name in sets:
        # every set gets its own positions and its own random stream, so one set can be
        # made again alone and come out the same
        rng = random.Random(f"{args.seed}-{name}")
        count = max(args.count, 10) if name == "edge" else args.count
        n_random = int(count * args.random_share)
        real = positions.pool(args.data, rng, 0)[: count - n_random]
        rand = [positions.random_position(rng) for _ in range(n_random)]
        chosen = real + rand
        rng.shuffle(chosen)
        if name == "edge":
            make_edge(args, chosen, rng)
        else:
            make_set(args, name, chosen, rng)
        print(f"{name}: done", flush=True)


if __name__ == "__main__":
    main()
