"""What changed between two state messages of one connection, as a JSON Patch
(RFC 6902), and the JSON text the websockets carry.

A page that opted in (``"deltas": true`` in its hello) gets one full ``state``
message, then ``patch`` messages: the operations that turn the last document it
was sent into the next (docs/server.md, "Deltas"). The diff is our own, not the
``jsonpatch`` library's: it walks both documents once, skips subtrees that are the
same object or compare equal (C-speed ``==``), and turns a list that grew or shrank
in one place (a card played from a hand, one drawn) into one ``remove`` or ``add``
rather than a cascade of ``replace``. Every value an operation carries is a
subtree of the new document, so a patch never shows a card the full view would
not (tests/test_server_deltas.py checks that, and applies the patches with the
``jsonpatch`` library, an implementation independent of this one).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

LOG_KEYS = frozenset({"log", "log_start", "resync", "rev"})
"""Fields of a state message outside the patched document: the log arrives as new
entries in every message already (``log_start`` says where they go), and ``resync``
and ``rev`` belong to the message, not to the state."""

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(message: Any) -> str:
    """``message`` as compact JSON text. orjson where it can (several times faster than
    ``json``); ``json`` for what orjson refuses (integers past 64 bits, lone surrogates)."""
    try:
        return orjson.dumps(message, option=_OPTIONS).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        return json.dumps(message, separators=(",", ":"))


def wire_bytes(text: str) -> int:
    """The bytes ``text`` takes in a websocket frame (UTF-8): what ``--queue-bytes`` counts."""
    return len(text) if text.isascii() else len(text.encode())


def document(message: dict[str, Any]) -> dict[str, Any]:
    """The part of a state message that patches keep up to date."""
    return {k: v for k, v in message.items() if k not in LOG_KEYS}


def _token(key: Any) -> str:
    text = key if type(key) is str else str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return text


def diff(old: Any, new: Any) -> list[dict[str, Any]]:
    """The JSON Patch operations that turn ``old`` into ``new`` (both JSON-shaped)."""
    ops: list[dict[str, Any]] = []
    _diff(old, new, "", ops)
    return ops


def _diff(a: Any, b: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if a is b:
        return
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        for k in a:
            if k not in b:
                ops.append({"op": "remove", "path": f"{path}/{_token(k)}"})
        for k, v in b.items():
            if k in a:
                old = a[k]
                if not _same(old, v):
                    _diff(old, v, f"{path}/{_token(k)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{_token(k)}", "value": v})
        return
    if ta in (list, tuple) and tb in (list, tuple):
        mine: list[dict[str, Any]] = []
        _diff_list(a, b, path, mine)
        if len(mine) > 1 and len(mine) >= len(b):  # as many operations as items: send the list
            ops.append({"op": "replace", "path": path, "value": b})
        else:
            ops.extend(mine)
        return
    if ta is not tb or a != b:  # True and 1, 1 and 1.0 are equal in Python, not in JSON
        ops.append({"op": "replace", "path": path, "value": b})


def _same(a: Any, b: Any) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _diff_list(a: Any, b: Any, path: str, ops: list[dict[str, Any]]) -> None:
    """A common head and tail are kept; between them, items pair up in place and the
    rest are removed or added (so one card leaving a hand is one ``remove``). A list
    that would take as many operations as it has items is sent whole (by the caller)."""
    n, m = len(a), len(b)
    head = 0
    while head < n and head < m and _same(a[head], b[head]):
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and _same(a[n - 1 - tail], b[m - 1 - tail]):
        tail += 1
    if head == n == m:
        return
    mid_a, mid_b = n - head - tail, m - head - tail
    paired = min(mid_a, mid_b)
    for i in range(head, head + paired):
        _diff(a[i], b[i], f"{path}/{i}", ops)
    at = head + paired
    for _ in range(mid_a - paired):
        ops.append({"op": "remove", "path": f"{path}/{at}"})
    for j in range(mid_b - paired):
        ops.append({"op": "add", "path": f"{path}/{at + j}", "value": b[at + j]})


class PatchError(ValueError):
    """A patch does not apply to the document it was given (a client out of step)."""


def _untoken(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """``doc`` with ``ops`` applied (``add``, ``remove``, ``replace``: what :func:`diff`
    makes), changed in place where it can be; the result is returned. For Python clients
    (``gloom bench --server``); pages apply patches in ``web/net.js``."""
    for op in ops:
        kind, path = op.get("op"), op.get("path")
        if kind not in ("add", "remove", "replace") or not isinstance(path, str):
            raise PatchError(f"not an operation this server sends: {op!r:.80}")
        if path == "":
            if kind == "remove":
                raise PatchError("cannot remove the whole document")
            doc = op["value"]
            continue
        if path[0] != "/":
            raise PatchError(f"bad pointer {path!r:.80}")
        *parents, last = (_untoken(t) for t in path[1:].split("/"))
        node = doc
        try:
            for t in parents:
                node = node[int(t)] if type(node) is list else node[t]
            if type(node) is list:
                i = len(node) if last == "-" and kind == "add" else int(last)
                if not 0 <= i <= len(node) - (kind != "add"):
                    raise PatchError(f"index {i} out of range at {path!r:.80}")
                if kind == "add":
                    node.insert(i, op["value"])
                elif kind == "remove":
                    del node[i]
                else:
                    node[i] = op["value"]
            elif type(node) is dict:
                if kind != "add" and last not in node:
                    raise PatchError(f"nothing at {path!r:.80}")
                if kind == "remove":
                    del node[last]
                else:
                    node[last] = op["value"]
            else:
                raise PatchError(f"nothing holds {path!r:.80}")
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            if isinstance(exc, PatchError):
                raise
            raise PatchError(f"nothing at {path!r:.80}") from None
    return doc
