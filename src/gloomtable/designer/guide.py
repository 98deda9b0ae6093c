"""Generated parts of the deck guide (docs/decks.md), so the guide's table of
effect primitives is written from the registry the checker itself uses.

Print it with ``python -m gloomtable.designer.guide`` and paste it over the
table in docs/decks.md when a primitive is added."""

from __future__ import annotations

import json
from typing import Any


def describe(schema: dict[str, Any]) -> str:
    """A parameter's JSON Schema in a designer's words: ``1..10``, ``"you" or "other"``,
    ``{ icon = text, n = -3..3 (default 1) }``."""
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " or ".join(json.dumps(v) for v in schema["enum"])
    if "anyOf" in schema:
        kinds = [describe(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(kinds)
    kind = schema.get("type")
    if kind == "integer":
        if "minimum" in schema and "maximum" in schema:
            return f"{schema['minimum']}..{schema['maximum']}"
        return "a whole number"
    if kind == "string":
        return "text"
    if kind == "boolean":
        return "true or false"
    if kind == "object":
        required = set(schema.get("required", []))
        parts = []
        for name, sub in schema.get("properties", {}).items():
            text = f"{name} = {describe(sub)}"
            if "default" in sub and sub["default"] is not None:
                text += f" (default {json.dumps(sub['default'])})"
            elif name not in required:
                text += " (optional)"
            parts.append(text)
        return "{ " + ", ".join(parts) + " }"
    return json.dumps(schema, sort_keys=True)


def primitive_table() -> str:
    """The Markdown table of every effect primitive: name, effect kinds, parameter, meaning."""
    from gloomtable.games.gloom.effects import PRIMITIVES

    order = ("immediate", "continuous", "persistent", "response")
    rows = ["| primitive | when | parameter | what it does |", "| --- | --- | --- | --- |"]
    for prim in sorted(PRIMITIVES.values(),
                       key=lambda p: (min(order.index(w) for w in p.when), list(PRIMITIVES).index(p.name))):
        param = describe(prim.adapter.json_schema()).replace("|", "\\|")
        when = ", ".join(w for w in order if w in prim.when)
        doc = prim.doc.replace("|", "\\|")
        rows.append(f"| `{prim.name}` | {when} | `{param}` | {doc} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(primitive_table())
