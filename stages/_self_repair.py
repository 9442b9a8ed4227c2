"""Self-repair: spoken Korean corrects itself in passing (주방 청정 아 아니 안방, 볼륨 5로 아 아니 8로 해 줘).

A run of words that take back what was said (lexicon clauses.retraction_cues: 아니, 잠깐, 취소, alone or after fillers)
with more words after it is a correction. What follows the run replaces the word of the same kind said before it (a
room, a level, a number, a device word); when it names none of them, a request said after it with a verb of its own
replaces everything before it (사진 찍어 아 아니다 한 바퀴 돌아 봐; 아니 잠깐만 거실 가 봐). The repaired text goes on
through the pipeline; the record keeps the original. A run at the turn's end corrects nothing: it takes back what was said (`taken_back_at_the_end`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from registry.contracts import Morpheme
from registry.loader import Registry
from stages._dislocation import words_with_tags
from stages._matchers import Matchers, matchers_for
from stages.speech_patterns import key

_MARKS = "?.!,~"
_VERB_TAGS = ("VV", "VX", "XSV", "VA")


def _cue_word(word: str, tags: list[str], forms: list[str], m: Matchers) -> bool:
    """The word is only retraction words or fillers (with their endings and particles: 잠깐만, 아니고; Kiwi's 아니 + 다/MAG
    for 아니다; 아니 alone however tagged); never a word asked with "?" (안 좋은 거 아니야?) nor an alternative (아니면,
    아님)."""
    forms_set, fillers = m.retraction
    if not forms or word.endswith("?") or tuple(zip(forms, tags)) in m.alternatives[0] or any(
            f in m.conditional_endings for f, t in zip(forms, tags) if t == "EC"):
        return False  # (거실 아니면 안방, 거실 아님 안방: alternatives, not a correction)
    pairs = [(f, t) for f, t in zip(forms, tags) if not t.startswith(("E", "J"))]
    held = ((forms[0], tags[0]) in m.corrections and all(t.startswith(("E", "J", "MAG")) for t in tags[1:])) or (
        len(forms) == 1 and tags[0] == "VCN" and (forms[0], "IC") in m.corrections)
    return held or (bool(pairs) and all(p in forms_set or p in fillers for p in pairs))


def _corrects(run: list, m: Matchers) -> bool:
    """The run of retraction words says a no that corrects: 아니 as an interjection, or the copula's 아니 after a filler
    (아 아니다); 잠깐 alone is for a moment (잠깐 서재로 와 봐), 먹는 거 아니야 is no correction."""
    opens_with_filler = all(p in m.retraction[1] for p in zip(run[0][2], run[0][1]))
    for k, (_, tags, forms) in enumerate(run):
        bare_no = len(forms) == 1 and (forms[0], "IC") in m.corrections
        if any(p in m.corrections for p in zip(forms, tags)) or bare_no or (k and "VCN" in tags and opens_with_filler):
            return True
    return False


def _kind(words: list, i: int, registry: Registry, m: Matchers) -> str | None:
    """What word i names: a room, a number, a device word (a registry alias, with the next word's nouns too), or None."""
    _, tags, forms = words[i]
    if not tags:
        return None
    if tags[0] in ("SN", "NR"):
        return "number"
    noun = "".join(f for f, _ in _leading_nouns(tags, forms))
    if noun and registry.resolve_room(noun) is not None:
        return "room"
    if noun and noun in _level_words(registry):
        return "level"  # 풍량 강 아니 약으로
    after = "".join(f for f, _ in _leading_nouns(*words[i + 1][1:])) if i + 1 < len(words) else ""
    return "device" if noun and (noun in m.anchor_entries or noun + after in m.anchor_entries) else None


@lru_cache(maxsize=8)
def _level_words(registry: Registry) -> frozenset[str]:
    """Every capability's level words (강, 약, 터보), once per registry."""
    return frozenset(w for cap in registry.capabilities.capabilities for w in cap.level_words)


def _leading_nouns(tags: list[str], forms: list[str]) -> list[tuple[str, str]]:
    out = []
    for form, tag in zip(forms, tags):
        if not tag.startswith("NN"):
            break
        out.append((form, tag))
    return out


def self_repaired(text: str, tokens: list[Any], registry: Registry) -> str | None:
    """The text with its self-correction applied, or None when it has none."""
    m = matchers_for(registry)
    if not any((t.form, t.tag) in m.retraction[0] or (t.form, t.tag) in m.corrections for t in tokens):
        return None  # most turns say no retraction word at all
    words = words_with_tags(text, tokens)
    start = end = None
    for i in range(len(words) - 1):
        if not _cue_word(*words[i], m):
            continue
        j = i
        while j < len(words) and _cue_word(*words[j], m):
            j += 1
        if j < len(words) and _corrects(words[i:j], m):
            start, end = i, j
            break
    if start is None:
        return None
    before, said = words[:start], words[end:]
    kind = _kind(words, end, registry, m)
    # (한 바퀴 돌아 봐 아니 됐다: 됐다 is a retraction word, no request said again; the turn takes it back)
    taken = registry.speech_acts.retraction_set
    verb = any(t in _VERB_TAGS and (f, t) not in taken for _, tags, forms in said for f, t in zip(forms, tags))
    same = next((k for k in range(len(before) - 1, -1, -1) if _kind(words, k, registry, m) == kind), None) if kind else None
    if same is not None:  # 볼륨 5로 아 아니 8로 해 줘 -> 볼륨 8로 해 줘; 주방 청정 아 아니 안방 -> 안방 청정
        new = before[:same] + said[:1] + ([] if verb or len(said) > 1 else before[same + 1:]) + said[1:]
    elif verb:
        new = said  # 사진 찍어 아 아니다 한 바퀴 돌아 봐 / 아니 잠깐만 거실 가 봐: the request said again replaces it
    else:
        return None
    tail = text[len(text.rstrip(_MARKS)):]
    return " ".join(w.rstrip(_MARKS) for w, _, _ in new if w.rstrip(_MARKS)) + tail


def taken_back_at_the_end(morphs: list[Morpheme], m: Matchers) -> bool:
    """주방 청정 아 아니 / 볼륨 10으로 아니 잠깐만: a clause whose words end, after a space, on words that take back what
    was said (lexicon clauses.retraction_cues: an interjection of no, or any of them after fillers or another), with no
    ending before them to cut a clause of their own."""
    forms, fillers = m.retraction
    either = forms | fillers
    words = [i for i, x in enumerate(morphs) if not x.tag.startswith(("S", "E", "J"))]  # (잠깐만: 잠깐 + 만)
    k = len(words)
    while k > 0 and key(morphs[words[k - 1]]) in either:
        k -= 1
    if k == 0 or k == len(words):
        return False
    first, tail = morphs[words[k]], [key(morphs[i]) for i in words[k:]]
    said = [w for w in tail if w not in fillers]
    spaced = first.start > morphs[words[k] - 1].start + morphs[words[k] - 1].length
    return spaced and bool(said) and all(w in forms for w in said) and (said[0][1] == "IC" or len(tail) > 1)
