#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (small hand-made inputs; no third-party data).

XQF seeds: the same short game with a variation and comments, once as version 10 (plain)
and once as version 18 (encrypted with the scheme xqf.rs documents).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "corpus")
KEY_TEXT = b"[(C) Copyright Mr. Dong Shiwei.]"
START = [80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3,
         9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86]
# (from, to, continuation, alternative, comment): root, 炮二平五 (alt 兵七进一), 马８进７
GAME = [(0, 0, True, False, "开局"), (72, 42, True, True, ""),
        (79, 67, False, False, "屏风马"), (23, 24, False, False, "仙人指路")]


def step(b, seed):
    return ((54 * b * b + 221) * seed) & 0xFF


def xqf(version, keys=(0,) * 13):
    head = bytearray(0x400)
    head[0:3] = b"XQ" + bytes([version])
    red = "柳大华".encode("gb18030")
    head[0x130] = len(red)
    head[0x131:0x131 + len(red)] = red
    head[0x33] = 1
    if version <= 10:
        head[0x10:0x30] = bytes(START)
        body = bytearray()
        for f, t, cont, alt, c in GAME:
            text = c.encode("gb18030")
            body += bytes([f + 0x18, t + 0x20, (0xF0 if cont else 0) | (0x0F if alt else 0), 0])
            body += len(text).to_bytes(4, "little") + text
        return bytes(head + body)
    head[3:16] = bytes(keys)
    mask, ors = head[3], head[8:12]
    ksum, kxy, kxyf, kxyt = head[12], head[13], head[14], head[15]
    piece = step(kxy, kxy)
    kfrom = step(kxyf, piece)
    kto = step(kxyt, kfrom)
    klen = (ksum * 256 + kxy) % 32000 + 767
    fkeys = [(ksum & mask) | ors[0], (kxy & mask) | ors[1], (kxyf & mask) | ors[2], (kxyt & mask) | ors[3]]
    stream = [KEY_TEXT[i] & fkeys[i % 4] for i in range(32)]
    for i in range(32):
        head[0x10 + i] = (START[(piece + i + 1) % 32] + piece) & 0xFF
    body = bytearray()
    for f, t, cont, alt, c in GAME:
        text = c.encode("gb18030")
        flags = (0x80 if cont else 0) | (0x40 if alt else 0) | (0x20 if text else 0)
        body += bytes([(f + 0x18 + kfrom) & 0xFF, (t + 0x20 + kto) & 0xFF, flags, 0])
        if text:
            body += ((len(text) + klen) & 0xFFFFFFFF).to_bytes(4, "little") + text
    data = bytearray(head + body)
    for p in range(0x400, len(data)):
        data[p] = (data[p] + stream[p % 32]) & 0xFF
    return bytes(data)


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


write("xqf", "v10.xqf", xqf(10))
write("xqf", "v18.xqf", xqf(18, (0xEF, 0, 0, 0, 0, 0x31, 0x07, 0x90, 0x2C, 0x5A, 0xA3, 0x16, 0xC1)))
write("fen", "start", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
write("fen", "endgame", "3ak4/4a4/9/9/9/9/9/4B4/4p4/3K5 b 7 30")
write("pgn", "iccs.pgn", """[Game "Chinese Chess"]
[Event "seed"]
[Format "ICCS"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]

{root} 1. h2e2! {[%clk 0:05:00] [%eval 0.35,12] [%cal Gh2e2] [%csl Re7] c} (1. c3c4 $5) 1... h9g7 ; x
2. h0g2 (2. b0c2 {v}) {a} {b} 2... i9h9 1-0
""")
write("pgn", "chinese.pgn", """[Game "Chinese Chess"]
[Format "Chinese"]
  1. 炮二平五 马８进７
  2. 马二进三 车９平８ *
""")
write("pgn", "wxf.pgn", """[Format "WXF"]
1. C2.5 H8+7 2. H2+3 R9.8 *
""")

# Notation seeds: byte 0 = plies to play first (0 here), then the move text.
for target, texts in {
    "notation_iccs": ["h2e2", "H2-E2"],
    "notation_wxf": ["C2.5", "H2+3", "Ｃ２＝５"],
    "notation_chinese": ["炮二平五", "馬８進７", "前车进一"],
    "notation_short_record": ["炮2 5", "马8 7"],
    "notation_yizisanma": ["炮253", "马233"],
    "notation_any": ["炮二平五", "C2.5", "h2e2", "炮253"],
}.items():
    for i, t in enumerate(texts):
        write(target, f"seed{i}", b"\x00" + t.encode("utf-8"))
