"""Rewrite `from_kg` in registry/product_vocabulary.json from the knowledge graph's entity aliases.

    python scripts/product_vocabulary.py           # rewrite the list
    python scripts/product_vocabulary.py --check   # exit 1 when the file is out of date with data/kg

Every alias of an entity whose type is listed in `kg_entity_types` is split into Kiwi morphemes; its nouns
(NNG, NNP, SL) of two characters or more are the product's words (화면 터치 -> 화면, 터치). Run it after editing
data/kg/entities.json; `attributes` and `excluded` in the file are edited by hand and kept.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the registry package is the project's

from registry.product_contracts import PRODUCT_NOUN_TAGS  # noqa: E402
VOCABULARY = ROOT / "registry" / "product_vocabulary.json"
ENTITIES = ROOT / "data" / "kg" / "entities.json"


def kg_words(entity_types: list[str], kiwi=None) -> list[str]:
    """The nouns of every alias and label of the KG entities of these types, sorted and unique."""
    if kiwi is None:
        from kiwipiepy import Kiwi

        kiwi = Kiwi(load_multi_dict=False)  # as the pipeline reads text (dataflow.driver.shared_kiwi)
    entities = json.loads(ENTITIES.read_text(encoding="utf-8"))["entities"]
    words: set[str] = set()
    for entity in entities:
        if entity.get("type") not in entity_types:
            continue
        for alias in [entity.get("label", ""), *entity.get("aliases", [])]:
            for token in kiwi.tokenize(alias):
                if token.tag in PRODUCT_NOUN_TAGS and len(token.form) >= 2:
                    words.add(token.form.lower())
    return sorted(words)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only report whether the file is up to date")
    args = ap.parse_args(argv)
    doc = json.loads(VOCABULARY.read_text(encoding="utf-8"))
    words = kg_words(doc["kg_entity_types"])
    if args.check:
        stale = words != doc["from_kg"]
        print(f"{VOCABULARY.name}: {'out of date, run scripts/product_vocabulary.py' if stale else 'up to date'}")
        return 1 if stale else 0
    doc["from_kg"] = words
    VOCABULARY.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{VOCABULARY.name}: {len(words)} words from {ENTITIES.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
