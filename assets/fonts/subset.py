#!/usr/bin/env python3
"""Builds assets/fonts/ChuheKai-Regular.ttf, the app's only font, from LXGW WenKai.

The full font is 15 MB; the app embeds it in its binary, so it keeps only what Chuhe
shows: the Xiangqi characters of both scripts, its own UI strings (every character in
locales/) and what imported game records and comments are written in, i.e. all of GB2312
(simplified) and Big5 level 1 (traditional), plus ASCII, Latin-1, punctuation and
full-width forms.

The subset is a Modified Version under the SIL OFL 1.1 and the original names "LXGW"
and "霞鹜" are Reserved Font Names, so the subset is renamed "Chuhe Kai".

Usage (needs `pip install fonttools`):
    python3 assets/fonts/subset.py /usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf
The source TTF is in Debian's package fonts-lxgw-wenkai (1.250+repack-1).
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = pathlib.Path(__file__).resolve().parent
OUTPUT = HERE / "ChuheKai-Regular.ttf"
LOCALES = HERE.parent.parent / "locales"
# The knowledge reference's texts are shown in the app too (issue 10).
KNOWLEDGE = HERE.parent / "knowledge"
FAMILY = "Chuhe Kai"
POSTSCRIPT_NAME = "ChuheKai-Regular"


def decode_double_byte(codec, leads, trails):
    """Every character that `codec` decodes from one lead byte and one trail byte."""
    chars = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.update(bytes([lead, trail]).decode(codec))
            except UnicodeDecodeError:
                pass
    return chars


def gb2312():
    """All of GB2312: the 6,763 hanzi and the symbol rows (lead and trail 0xA1-0xFE)."""
    return decode_double_byte("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))


def big5_common():
    """Big5 symbols (0xA140-0xA3BF) and level 1, the 5,401 common hanzi (0xA440-0xC67E)."""
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    chars = set()
    for lead in range(0xA1, 0xC7):
        for trail in trails:
            code = lead << 8 | trail
            if 0xA140 <= code <= 0xA3BF or 0xA440 <= code <= 0xC67E:
                try:
                    chars.update(bytes([lead, trail]).decode("big5"))
                except UnicodeDecodeError:
                    pass
    return chars


def ranges():
    """Latin text, punctuation and the symbols used in annotations (arrows, ○●, ①)."""
    blocks = [
        (0x0020, 0x007E),  # ASCII
        (0x00A0, 0x00FF),  # Latin-1 supplement
        (0x2000, 0x206F),  # general punctuation
        (0x2190, 0x21FF),  # arrows
        (0x2460, 0x24FF),  # enclosed numerals
        (0x25A0, 0x25FF),  # geometric shapes
        (0x3000, 0x303F),  # CJK symbols and punctuation
        (0xFF00, 0xFFEF),  # half-width and full-width forms
    ]
    return {chr(c) for lo, hi in blocks for c in range(lo, hi + 1)}


# Every Xiangqi character the board and the notations use, in both scripts: pieces (some,
# like 俥 and 傌, are in neither GB2312 nor Big5 level 1), the river and the file numbers.
XIANGQI = "帅仕相马车炮兵将士象卒帥傌俥將馬車砲楚河汉界漢一二三四五六七八九进退平前中后進後"


def locale_text():
    """Every character in Chuhe's own UI strings and its knowledge reference."""
    paths = sorted(LOCALES.glob("*")) + sorted(KNOWLEDGE.glob("*.ron"))
    return {c for path in paths for c in path.read_text("utf-8")}


def rename(font):
    """Replaces the reserved names and keeps the copyright and licence records."""
    version = font["name"].getDebugName(5)
    names = {
        1: FAMILY,
        3: f"{FAMILY}:{version}",
        4: FAMILY,
        6: POSTSCRIPT_NAME,
        16: FAMILY,
    }
    for record in list(font["name"].names):
        if record.nameID in names or record.nameID in (17, 18):
            font["name"].removeNames(nameID=record.nameID)
    for name_id, text in names.items():
        font["name"].setName(text, name_id, 3, 1, 0x409)
        font["name"].setName(text, name_id, 1, 0, 0)
    font["name"].setName(
        "Subset of LXGW WenKai 1.250 made for Chuhe (楚河) by assets/fonts/subset.py",
        10, 3, 1, 0x409,
    )


def main():
    source = pathlib.Path(sys.argv[1])
    chars = gb2312() | big5_common() | ranges() | set(XIANGQI) | locale_text()
    chars = {c for c in chars if c.isprintable() or c == "\u3000"}

    options = subset.Options()
    # egui lays text out glyph by glyph without shaping, so the layout and vertical
    # metrics tables are never read; hinting is dropped because egui renders unhinted.
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "vhea", "vmtx", "gasp"]
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True

    # Keeping the source's timestamp makes the output the same byte for byte on every run.
    font = TTFont(source, recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(font)
    rename(font)
    font.save(OUTPUT)
    print(f"{OUTPUT.name}: {len(font.getBestCmap())} characters, {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
