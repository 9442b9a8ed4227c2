"""Read the manual corpus (data/manual/README.md describes the format) into documents and sections.

`read_corpus(dir) -> [ManualDocument]`: file reading stays here; `parse_manual(text, name)` is
pure. A malformed file raises a KnowledgeIndexError naming the file and the line.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from registry.errors import KnowledgeIndexError

_SECTION = re.compile(r"^##\s+\[(?P<id>[A-Za-z0-9][A-Za-z0-9_.-]*)\]\s+(?P<number>\d+(?:\.\d+)*)\s+(?P<title>.+?)\s*$")
_CHAPTER = re.compile(r"^#\s+(?P<number>\d+)\.\s+(?P<title>.+?)\s*$")
_FRONT_KEYS = ("doc_id", "version", "valid_at", "title")


@dataclass(frozen=True)
class Section:
    """One retrieval unit: a level-2 section with its stable id."""

    source_id: str
    number: str
    """`chapter.section`, e.g. "5.3"."""
    title: str
    chapter: str
    """The chapter heading the section sits under, e.g. 5. 설정과 모드."""
    text: str
    line: int
    """1-based line of the heading (for error messages)."""

    @property
    def location(self) -> str:
        return f"{self.number} {self.title}"


@dataclass(frozen=True)
class ManualDocument:
    """One version of one document."""

    doc_id: str
    version: str
    valid_at: date
    title: str
    path: str
    content_hash: str
    sections: list[Section] = field(default_factory=list)

    @property
    def doc_key(self) -> str:
        return f"{self.doc_id}@{self.version}"


def _front_matter(lines: list[str], name: str) -> tuple[dict[str, str], int]:
    if not lines or lines[0].strip() != "---":
        raise KnowledgeIndexError(f"{name}: line 1: the file must start with a '---' front matter block")
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:], 2):
        if line.strip() == "---":
            missing = [k for k in _FRONT_KEYS if not meta.get(k)]
            if missing:
                raise KnowledgeIndexError(f"{name}: front matter: missing {', '.join(missing)}")
            return meta, number
        key, sep, value = line.partition(":")
        if not sep:
            raise KnowledgeIndexError(f"{name}: line {number}: expected 'key: value' in the front matter")
        meta[key.strip()] = value.strip().strip("\"'")
    raise KnowledgeIndexError(f"{name}: the front matter block is never closed with '---'")


def parse_manual(text: str, name: str) -> ManualDocument:
    """Parse one manual file's text; `name` is used in error messages and as the path."""
    lines = text.splitlines()
    meta, body_start = _front_matter(lines, name)
    try:
        valid_at = date.fromisoformat(meta["valid_at"])
    except ValueError:
        raise KnowledgeIndexError(f"{name}: front matter: valid_at {meta['valid_at']!r} is not an ISO date") from None
    sections: list[Section] = []
    seen: set[str] = set()
    chapter = ""
    current: dict | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            sections.append(Section(text="\n".join(body).strip(), **current))

    for number, line in enumerate(lines[body_start:], body_start + 1):
        if line.startswith("## "):
            match = _SECTION.match(line)
            if not match:
                raise KnowledgeIndexError(f"{name}: line {number}: a section heading must look like '## [ID] 1.2 title'")
            close()
            sid = match["id"]
            if sid in seen:
                raise KnowledgeIndexError(f"{name}: line {number}: section id {sid} is used twice")
            seen.add(sid)
            current, body = {"source_id": sid, "number": match["number"], "title": match["title"], "chapter": chapter, "line": number}, []
        elif line.startswith("# "):
            close()
            current, body = None, []
            match = _CHAPTER.match(line)
            chapter = f"{match['number']}. {match['title']}" if match else chapter
        elif current is not None:
            body.append(line)
    close()
    if not sections:
        raise KnowledgeIndexError(f"{name}: no '## [ID] number title' sections found")
    empty = [s.source_id for s in sections if not s.text]
    if empty:
        raise KnowledgeIndexError(f"{name}: section {empty[0]} has no text")
    return ManualDocument(
        doc_id=meta["doc_id"], version=meta["version"], valid_at=valid_at, title=meta["title"], path=name,
        content_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(), sections=sections,
    )


def read_corpus(directory: Path) -> list[ManualDocument]:
    """Every `*.md` file of the directory except README.md, in name order."""
    if not directory.is_dir():
        raise KnowledgeIndexError(f"corpus directory not found: {directory}")
    files = sorted(p for p in directory.glob("*.md") if p.name.lower() != "readme.md")
    if not files:
        raise KnowledgeIndexError(f"{directory}: no manual files (*.md other than README.md)")
    docs = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise KnowledgeIndexError(f"{path}: not UTF-8 text") from None
        docs.append(parse_manual(text, path.name))
    keys = [d.doc_key for d in docs]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    if dupes:
        raise KnowledgeIndexError(f"{directory}: two files declare the same doc_id and version {dupes[0]}")
    ids = [s.source_id for d in docs for s in d.sections]
    clash = sorted({i for i in ids if ids.count(i) > 1})
    if clash:
        raise KnowledgeIndexError(f"{directory}: section id {clash[0]} appears in two documents")
    return docs
