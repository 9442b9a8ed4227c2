"""Hangul forms shared by the router's slip repair and the knowledge graph's linker: a word's jamo and the variants
one jamo deletion away, and the rule that only a word of three syllables or more is repaired.

A recognition slip (바이탈싸인 for 바이탈사인, 프리피터 for 프리필터) is one jamo edit away from the word meant; two
words one edit apart are found by sharing a variant of one deletion each (symmetric deletion).
"""

from __future__ import annotations

FUZZY_MIN_SYLLABLES = 3
"""A recognition slip is repaired only in a word this long (the issue's rule, not a tuning knob): 바랄/사람 -> 바람 and
아진 -> 사진 are talk, not slips."""


def jamo(text: str) -> str:
    """Hangul syllables decomposed into initial/medial/final jamo (other characters kept)."""
    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out.append(chr(0x1100 + code // 588) + chr(0x1161 + code % 588 // 28) + (chr(0x11A7 + code % 28) if code % 28 else ""))
        else:
            out.append(ch)
    return "".join(out)


def deletions(s: str) -> set[str]:
    """The string and every string one character shorter than it."""
    return {s} | {s[:i] + s[i + 1:] for i in range(len(s))}


def all_hangul(word: str) -> bool:
    """Every character a Hangul syllable."""
    return bool(word) and all("\uac00" <= ch <= "\ud7a3" for ch in word)
