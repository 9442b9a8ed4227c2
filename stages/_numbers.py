"""Korean number words to digits, driven by the lexicon's number tables.

Sino numerals ("삼십") are converted only before a counter ("삼십 분", "삼 단계"), since
"이", "사", "일" are ordinary words too; unambiguous native numerals ("다섯") also stand
alone ("볼륨 다섯").
"""

from __future__ import annotations

import re
from functools import lru_cache

from registry.loader import Registry


class NumberConverter:
    def __init__(self, numbers: dict):
        self.sino = numbers["sino_digits"]
        self.units = numbers["sino_units"]
        self.native_units = numbers["native_units"]
        self.native_tens = numbers["native_tens"]
        self.standalone = set(numbers["standalone_native"])
        self.verb_spellings = frozenset(numbers.get("standalone_verb_spellings", []))
        self.verb_after = frozenset(numbers.get("standalone_verb_after_words", []))
        self.verb_forms = frozenset(numbers.get("standalone_verb_forms", []))
        self.verb_before = frozenset(numbers.get("standalone_verb_before_words", []))
        self.verb_after_particles = tuple(numbers.get("standalone_verb_after_particles", []))
        self.level_counters = set(numbers.get("level_counters", []))
        self.ambiguous_lone = set(numbers.get("ambiguous_lone_sino", []))
        self.lookalikes = frozenset(numbers.get("word_lookalikes", []))
        self.counter_followers = tuple(numbers.get("counter_followers", []))
        self.sino_only = frozenset(numbers.get("sino_only_counters", []))
        self._followers = sorted(self.counter_followers, key=len, reverse=True)
        counters = sorted(numbers["counters"], key=len, reverse=True)
        particles = sorted(numbers["trailing_particles"], key=len, reverse=True)
        sino_chars = "".join(sorted(set(self.sino) | set(self.units)))
        natives = sorted(set(self.native_units) | set(self.native_tens), key=len, reverse=True)
        native_alt = "|".join(map(re.escape, natives))
        counter_alt = "|".join(map(re.escape, counters))
        # a number word must start a word: after a space, the start, or a digit-free boundary
        self._sino_re = re.compile(rf"(?<![가-힣])([{sino_chars}]+)(\s?)(?=({counter_alt}))")
        self._native_re = re.compile(rf"(?<![가-힣])((?:{native_alt})+)(\s?)(?=({counter_alt}))")
        standalone_alt = "|".join(map(re.escape, sorted(self.standalone, key=len, reverse=True)))
        particle_alt = "|".join(map(re.escape, particles))
        self._standalone_re = re.compile(rf"(?<![가-힣])({standalone_alt})(?=(?:{particle_alt})?(?:\s|$|[?.!,]))")
        heads = "|".join(map(re.escape, sorted(numbers.get("level_heads", []), key=len, reverse=True)))
        # 볼륨 영 / 밝기 삼으로: a lone sino numeral right after a setting's name is its level
        self._after_head_re = re.compile(
            rf"(?<![가-힣])((?:{heads})\s)([{sino_chars}]+)(?=(?:으로|로|까지)(?:\s|$|[?.!,])|\s*$|\s*[?.!,])") if heads else None

    def _ends_number(self, text: str, at: int) -> bool:
        """After a counter glued to a lone numeral: the end, a non-letter, or a particle-like follower."""
        rest = text[at:]
        while rest and (follower := next((f for f in self._followers if rest.startswith(f)), None)):
            rest = rest[len(follower):]  # (세 시에는: particles after particles; 오시는데: 는 then 데 is a verb's ending)
        return not rest or not ("\uac00" <= rest[0] <= "\ud7a3")

    def _sino_value(self, word: str) -> int | None:
        total, current = 0, 0
        for ch in word:
            if ch in self.sino:
                current = current * 10 + self.sino[ch] if current else self.sino[ch]
            elif ch in self.units:
                total += (current or 1) * self.units[ch]
                current = 0
            else:
                return None
        return total + current

    def _native_value(self, word: str) -> int | None:
        total, rest = 0, word
        for tens, value in sorted(self.native_tens.items(), key=lambda kv: -len(kv[0])):
            if rest.startswith(tens):
                total += value
                rest = rest[len(tens):]
                break
        if rest:
            if rest not in self.native_units:
                return None
            total += self.native_units[rest]
        return total or None

    def convert(self, text: str) -> str:
        def sino(m: re.Match) -> str:
            # "이 시간", "일 분만": a lone sino syllable before a time counter is a word, not a number
            if m.group(1) in self.ambiguous_lone and m.group(2) and m.group(3) not in self.level_counters:
                return m.group(0)
            if not m.group(2) and m.group(1) + m.group(3) in self.lookalikes:
                return m.group(0)  # 이번 주에: this week, not week 2
            if len(m.group(1)) == 1 and not m.group(2) and not self._ends_number(m.string, m.end() + len(m.group(3))):
                return m.group(0)  # "오시면" is "if (someone) comes", not "if 5 o'clock"
            value = self._sino_value(m.group(1))
            return f"{value}{m.group(2)}" if value is not None else m.group(0)

        def native(m: re.Match) -> str:
            if not m.group(2) and m.group(1) + m.group(3) in self.lookalikes:
                return m.group(0)  # 하나도 모르겠어: not at all, not one degree
            if m.group(3) in self.sino_only:
                return m.group(0)  # 네일 사진 (nail), 세일: days and seconds are counted in Sino-Korean (사 일, 삼 초)
            value = self._native_value(m.group(1))
            return f"{value}{m.group(2)}" if value is not None else m.group(0)

        def standalone(m: re.Match) -> str:
            spelled = m.string[m.start():].split(" ", 1)[0].rstrip("?.!,")
            before, after = m.string[:m.start()].split(), m.string[m.end():].split()
            if spelled in self.verb_spellings or (before and before[-1] in self.verb_after and spelled in self.verb_forms) \
                    or (spelled == m.group(1) and after and after[0].rstrip("?.!,") in self.verb_before) \
                    or (spelled in self.verb_forms and not after and before and len(before[-1]) > 1
                        and before[-1].endswith(self.verb_after_particles)):
                return m.group(0)  # 몇 시까지 하나요? / 건강 측정 못 하나 / 걸어 둘 수 있어 / 청소도 하나: a verb, not a number
            return str(self.native_units[m.group(1)])

        def after_head(m: re.Match) -> str:
            value = self._sino_value(m.group(2))
            return f"{m.group(1)}{value}" if value is not None else m.group(0)

        if self._after_head_re is not None:
            text = self._after_head_re.sub(after_head, text)
        text = self._native_re.sub(native, text)
        text = self._sino_re.sub(sino, text)
        return self._standalone_re.sub(standalone, text)


@lru_cache(maxsize=8)
def converter_for(registry: Registry) -> NumberConverter:
    return NumberConverter(registry.lexicon["numbers"])
