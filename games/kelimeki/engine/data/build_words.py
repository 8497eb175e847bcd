"""Build ``words.txt.gz`` from the Starlang Turkish dictionary (kelimeki.md W-D3).

Source: the npm package ``nlptoolkit-dictionary`` 1.0.16 (ISC licence, Olcay Taner
Yıldız / Starlang Software), file ``turkish_dictionary.txt``: one headword per line
followed by its tags.  Run ``npm pack nlptoolkit-dictionary@1.0.16``, unpack it, then::

    python -m games.kelimeki.engine.data.build_words package/turkish_dictionary.txt

What is kept (see README.md in this folder):
* an entry with a part of speech other than proper noun (``IS_OA``) — nouns, adjectives,
  adverbs, interjections, conjunctions, postpositions, pronouns, numbers…; an entry
  tagged only as a proper noun, an abbreviation or a markup token is dropped;
* a verb (``CL_FIIL``) as its dictionary headword, the infinitive: the bare stem the
  source lists plus ``-mak``/``-mek`` by the last vowel (``gel`` → ``GELMEK``); the bare
  stem itself only when the entry has another part of speech too (``at`` noun);
* every word folded by W-D2 and kept only when playable (2+ letters, all of W-T1) and
  holding a vowel (unit and abbreviation entries such as ``kg``, ``cd`` are dropped, as
  are Roman numerals).
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from games.kelimeki.engine.alphabet import fold, playable

BACK_VOWELS = set("AIOU")
FRONT_VOWELS = set("EİÖÜ")
NON_WORD_TAGS = {"IS_OA", "IS_KIS", "IS_HEADER"}
POS_TAGS = {"CL_ISIM", "CL_FIIL", "CL_NONE", "IS_ADJ", "IS_ADVERB", "IS_INTERJ", "IS_CONJ",
            "IS_POSTP", "IS_ZM", "IS_DET", "IS_SAYI", "IS_PUREADJ", "IS_QUES", "IS_ORD",
            "IS_EX"}  # fmt: skip
VOWELS = BACK_VOWELS | FRONT_VOWELS
ROMAN = set("IVXLCDM")
OUT = Path(__file__).with_name("words.txt.gz")


def infinitive(stem: str) -> str | None:
    for ch in reversed(stem):
        if ch in BACK_VOWELS:
            return stem + "MAK"
        if ch in FRONT_VOWELS:
            return stem + "MEK"
    return None


def headwords(lines) -> set[str]:
    words: set[str] = set()
    for line in lines:
        parts = line.split()
        if not parts:
            continue
        word, tags = fold(parts[0]), set(parts[1:])
        if "IS_HEADER" in tags:
            continue
        pos = tags & POS_TAGS
        if "CL_FIIL" in tags:
            inf = infinitive(word)
            if inf and playable(inf):
                words.add(inf)
            pos = pos - {"CL_FIIL"}
        if "IS_SAYI" in tags and set(word) <= ROMAN:
            continue  # a Roman numeral (II, IV, VI)
        if pos and playable(word) and VOWELS & set(word):
            words.add(word)
    return words


def main(argv: list[str]) -> int:
    src = Path(argv[0])
    words = headwords(src.read_text(encoding="utf-8").splitlines())
    body = "".join(w + "\n" for w in sorted(words))
    header = ("# Kelimeki word list (kelimeki.md W-D3): dictionary headwords, folded by W-D2.\n"
              "# Source: npm nlptoolkit-dictionary 1.0.16, turkish_dictionary.txt (ISC licence,\n"
              "# Olcay Taner Yildiz / Starlang Software); built by build_words.py; see README.md.\n")  # fmt: skip
    with gzip.GzipFile(OUT, "wb", mtime=0) as fh:
        fh.write((header + body).encode("utf-8"))
    print(f"{len(words)} words -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
