"""Schedule time semantics from normalized text (digits already in place), driven by the lexicon."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from registry.loader import Registry


@dataclass
class TimeSlots:
    start_time: str | None = None
    end_time: str | None = None
    repeat_days: list[str] | None = None
    duration_s: int | None = None
    relative: bool = False
    signals: list[str] = field(default_factory=list)

    @property
    def strength(self) -> float:
        if self.start_time or self.end_time or self.repeat_days:
            return 1.0
        return 0.6 if self.duration_s else 0.0


class TimeParser:
    def __init__(self, sch: dict):
        self.ampm = sch["ampm"]
        ampm_alt = "|".join(map(re.escape, sorted(self.ampm, key=len, reverse=True)))
        hour, minute, second = sch["hour_counter"], sch["minute_counter"], sch["second_counter"]
        hours_dur, half = sch["hour_duration_counter"], sch["half"]
        self.clock_re = re.compile(
            rf"(?:({ampm_alt})\s?)?(\d{{1,2}})\s?{hour}(?!{hours_dur[1:]})(?:\s?(\d{{1,2}})\s?{minute}|\s?({half}))?\s?"
            rf"({'|'.join(map(re.escape, sch['end_markers'] + sch['start_markers']))})?"
        )
        self.colon_re = re.compile(r"(\d{1,2}):(\d{2})")
        rel_alt = "|".join(map(re.escape, sch["relative_markers"]))
        dur_unit = rf"(\d+)\s?({hours_dur}|{minute}|{second})(?:\s?(\d+)\s?({minute}|{second}))?(?:\s?({half}))?"
        self.relative_re = re.compile(dur_unit + rf"\s?({rel_alt})")
        self.duration_re = re.compile(dur_unit)
        self.units = {hours_dur: 3600, minute: 60, second: 1}
        self.half = half
        self.noon = sch["noon_words"]
        self.repeat = sch["repeat"]
        days = "".join(sch["weekdays"])
        suffix_alt = "|".join(map(re.escape, sorted(sch["weekday_suffixes"], key=len, reverse=True)))
        self.weekday_map = sch["weekdays"]
        self.weekday_re = re.compile(rf"((?:[{days}],?\s?)+)(?:{suffix_alt})")
        self.end_markers = set(sch["end_markers"])
        self.midnight_words = set(sch["twelve_is_midnight"])
        self.weekday_run_re = re.compile(rf"(?<![가-힣])([{days}]{{2,}})(?![가-힣])")

    def _seconds(self, m: re.Match) -> int:
        total = int(m.group(1)) * self.units[m.group(2)]
        if m.group(3):
            total += int(m.group(3)) * self.units[m.group(4)]
        if m.group(5):
            total += self.units[m.group(2)] // 2
        return total

    def parse(self, text: str) -> TimeSlots:
        out = TimeSlots()
        rel = self.relative_re.search(text)
        if rel:
            secs = self._seconds(rel)
            out.start_time = f"+{secs // 3600:02d}:{secs % 3600 // 60:02d}"
            out.relative = True
            out.signals.append(f"relative:{rel.group(0)}")
        clock_text = text[: rel.start()] + text[rel.end():] if rel else text
        clock_spans = self._clock_times(clock_text, text, out)
        out.repeat_days = self._repeat_days(text, out) or None
        if not out.relative:
            rest = clock_text
            for start, end in reversed(clock_spans):
                rest = rest[:start] + " " + rest[end:]
            dur = self.duration_re.search(rest)
            if dur:
                out.duration_s = self._seconds(dur)
                out.signals.append(f"duration:{dur.group(0)}")
        return out

    def _clock_times(self, clock_text: str, text: str, out: TimeSlots) -> list[tuple[int, int]]:
        """Start and end clock times (오후 6시부터 7시까지: the second hour inherits 오후); returns the spans read."""
        last_word = None
        clock_spans = []
        for m in self.clock_re.finditer(clock_text):
            clock_spans.append((m.start(), m.end()))
            hour = int(m.group(2))
            if hour > 24:
                continue
            minute = int(m.group(3)) if m.group(3) else (30 if m.group(4) else 0)
            word = m.group(1) or last_word
            if word:
                offset = self.ampm[word]
                if hour == 12 and word in self.midnight_words:
                    hour = 0
                elif offset and hour < 12:
                    hour += offset
                last_word = word
            hhmm = f"{hour % 24:02d}:{minute:02d}"
            if m.group(5) in self.end_markers:
                out.end_time = hhmm
            elif not out.start_time:
                out.start_time = hhmm
            elif not out.end_time:
                out.end_time = hhmm
            out.signals.append(f"clock:{m.group(0).strip()}")
        for m in self.colon_re.finditer(clock_text):
            if not out.start_time:
                out.start_time = f"{int(m.group(1)) % 24:02d}:{m.group(2)}"
                out.signals.append(f"clock:{m.group(0)}")
        for word, value in self.noon.items():
            if word in text and not out.start_time:
                out.start_time = value
                out.signals.append(f"clock:{word}")
        return clock_spans

    def _repeat_days(self, text: str, out: TimeSlots) -> list[str]:
        """Repeat days: a repeat word (매일, 주말), else weekday syllables (월수금, 월요일이랑 수요일)."""
        for word in sorted(self.repeat, key=len, reverse=True):
            if word in text:
                out.signals.append(f"repeat:{word}")
                return list(self.repeat[word])
        days: list[str] = []
        for m in self.weekday_re.finditer(text):
            for ch in m.group(1):
                if ch in self.weekday_map and self.weekday_map[ch] not in days:
                    days.append(self.weekday_map[ch])
            out.signals.append(f"repeat:{m.group(0)}")
        if not days:
            for m in self.weekday_run_re.finditer(text):
                days = [self.weekday_map[ch] for ch in m.group(1)]
                out.signals.append(f"repeat:{m.group(0)}")
        return days


@lru_cache(maxsize=8)
def time_parser_for(registry: Registry) -> TimeParser:
    return TimeParser(registry.lexicon["schedule"])
