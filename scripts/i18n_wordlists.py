"""Write forge/i18n/data/{english,french}-only.txt and english-not-french.txt from wordfreq's data (by hand, rarely).

Usage: python scripts/i18n_wordlists.py WORDFREQ_WHEEL
  (the wheel: `pip download --no-deps wordfreq==3.1.1`; needs msgpack). The lists are derived
data under CC BY-SA 4.0, as wordfreq's data is: see forge/i18n/data/README.md.

A word is "English, not French" when it is among English's N most frequent words and French
uses it at most a tenth as often (its French rank is past both F and ten times its English
rank): "already" (English rank 256, French 52,590) is; "deck" (3,569 and 27,822) is not, nor
"commander" (a French verb too). The same the other way for French.

english-not-french.txt is wider, for parity's single-word check (``untranslated-word``), which
reads it only for the words the project's own English uses: among English's N2 most frequent
words, those French uses less than a K2-th as often, or not at all, unless they are among
French's F2 most frequent words whatever English does ("but", « le but »; "an", « un an »):
"card" (English rank 974, French 18,722) is; "page" (800 and 857) is not.
"""
from __future__ import annotations

import gzip
import sys
import zipfile
from pathlib import Path

import msgpack

N, F, K = 12000, 20000, 10
N2, F2, K2 = 30000, 1000, 5
OUT = Path(__file__).resolve().parents[1] / "forge" / "i18n" / "data"
HEADER = ("# {what}: derived from wordfreq {version} (Robyn Speer), CC BY-SA 4.0; see README.md.\n"
          "# Among {lang}'s {n} most frequent words, those the other language uses at most a tenth as often.\n")


def ranks(wheel: zipfile.ZipFile, lang: str) -> dict[str, int]:
    buckets = msgpack.loads(gzip.decompress(wheel.read(f"wordfreq/data/large_{lang}.msgpack.gz")), raw=False)
    words = [w for bucket in buckets[1:] for w in bucket]  # buckets[0] is the format header
    return {w: i for i, w in reversed(list(enumerate(words)))}


def only(a: dict[str, int], b: dict[str, int]) -> list[str]:
    return sorted(w for w, i in a.items()
                  if i < N and w.isalpha() and len(w) > 1 and b.get(w, 10 ** 9) > max(F, K * i))


def not_in(a: dict[str, int], b: dict[str, int]) -> list[str]:
    """Words of ``a``'s N2 most frequent that ``b`` uses less than a K2-th as often, or never (``b``'s F2 kept)."""
    return sorted(w for w, i in a.items()
                  if i < N2 and w.isalpha() and len(w) > 1 and b.get(w, 10 ** 9) > max(F2, K2 * i))


NOT_HEADER = ("# {what}: derived from wordfreq {version} (Robyn Speer), CC BY-SA 4.0; see README.md.\n"
              "# Among English's {n} most frequent words, those French uses less than a {k}th as often, or never\n"
              "# (French's {f} most frequent words are kept out whatever English does).\n")


def main() -> None:
    wheel = zipfile.ZipFile(sys.argv[1])
    version = Path(sys.argv[1]).name.split("-")[1]
    en, fr = ranks(wheel, "en"), ranks(wheel, "fr")
    for name, lang, words in (("english-only", "English", only(en, fr)), ("french-only", "French", only(fr, en))):
        text = HEADER.format(what=name, version=version, lang=lang, n=N) + "".join(w + "\n" for w in words)
        (OUT / f"{name}.txt").write_text(text, encoding="utf-8")
        print(f"{name}.txt: {len(words)} words")
    words = not_in(en, fr)
    text = NOT_HEADER.format(what="english-not-french", version=version, n=N2, k=K2, f=F2) + "".join(w + "\n" for w in words)
    (OUT / "english-not-french.txt").write_text(text, encoding="utf-8")
    print(f"english-not-french.txt: {len(words)} words")


if __name__ == "__main__":
    main()
