"""Names people could mistake for one another (docs/web.md "Security", docs/rules.md TP-11).

Beside "Ann" a table must not seat "Ａnn" (fullwidth A), "Аnn" (Cyrillic А) or "ᴀnn" (small
capital A), nor a club list them: in the chat and the table log they impersonate Ann. Two names
*look alike* when their :func:`look_alike_key` is the same. The key is the Unicode confusable
skeleton of Unicode Technical Standard #39 ("Unicode Security Mechanisms", section 4), taken from
ICU - the standard's reference implementation (``SpoofChecker.getSkeleton``, the data of
``confusables.txt``; PyICU, pinned as ``pyicu-wheels`` in the ``web`` extra) - made
case-insensitive, since names are compared in any case ("ann" is Ann):

1. the name in NFKC (``Ａ`` -> ``A``);
2. its skeleton, as written (``ℓ``, ``І``, capital ``I``, ``1`` -> ``l``; ``0`` -> ``O``; ``m`` ->
   ``rn``);
3. each character that is the skeleton of a character whose other case has another skeleton is
   replaced by that one - one step of case across the data, e.g. ``ᴀ`` is the skeleton of
   Cherokee ``ꭺ``, whose capital ``Ꭺ`` has the skeleton ``A``: so ``ᴀ`` -> ``a``
   (:func:`case_steps`, read from ICU's data once per process); then the whole case-folded and
   its skeleton taken again;
4. steps 2-3 again, until the key no longer changes.

The same name in another case keeps its own rule (a person who left comes back under it).
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache
from typing import Any

__all__ = ["look_alike_key", "case_steps", "look_alike", "look_alike_pair", "looks_like"]

_lock = threading.Lock()
_steps: dict[str, str] | None = None


@lru_cache(maxsize=1)
def _skeleton() -> Any:
    try:
        import icu
    except ImportError as exc:  # pragma: no cover - the web extra installs it
        raise ImportError("comparing names needs ICU: pip install 'fourcards[web]' (pyicu-wheels)") from exc
    checker = icu.SpoofChecker()
    return lambda text: checker.getSkeleton(0, text)


def case_steps() -> dict[str, str]:
    """Step 3's map, character -> character: for every cased character ``x`` whose skeleton ``p`` is
    one non-ASCII character without case, and whose other case ``y`` has a skeleton ``q`` of one
    character other than ``p``: ``p`` -> ``q`` case-folded (the smallest, when several). Built
    from ICU's data on first use (a fraction of a second), then kept."""
    global _steps
    with _lock:
        if _steps is None:
            skeleton = _skeleton()
            found: dict[str, set[str]] = {}
            for cp in range(0x110000):
                x = chr(cp)
                if 0xD800 <= cp <= 0xDFFF or (x.lower() == x and x.upper() == x):
                    continue
                p = skeleton(x)
                if len(p) != 1 or p.isascii() or p.lower() != p or p.upper() != p:
                    continue
                for y in {x.lower(), x.upper(), x.casefold()} - {x}:
                    q = skeleton(y) if len(y) == 1 else ""
                    if len(q) == 1 and q != p:
                        found.setdefault(p, set()).add(q.casefold())
            _steps = {p: min(qs) for p, qs in found.items()}
        return _steps


@lru_cache(maxsize=4096)
def look_alike_key(name: str) -> str:
    """The key under which names look alike (see the module doc): ``look_alike_key("Ａnn") ==
    look_alike_key("Аnn") == look_alike_key("ᴀnn") == look_alike_key("ann")``."""
    skeleton, steps = _skeleton(), case_steps()
    key = unicodedata.normalize("NFKC", name)
    for _ in range(4):
        again = skeleton("".join(steps.get(c, c) for c in skeleton(key)).casefold())
        if again == key:
            break
        key = again
    return key


def look_alike(name: str, others: Any) -> Any:
    """The first of ``others`` (names, or objects with a ``name``) that looks like ``name`` without
    being the same name in another case, or ``None``."""
    key, folded = look_alike_key(name), name.casefold()
    for other in others:
        text = other if isinstance(other, str) else other.name
        if text.casefold() != folded and look_alike_key(text) == key:
            return other
    return None


def look_alike_pair(names: Any) -> tuple[str, str] | None:
    """In a list of names, the first ``(later, earlier)`` pair that look alike without being the
    same name in another case, or ``None``."""
    seen: list[str] = []
    for n in names:
        other = look_alike(n, seen)
        if other is not None:
            return n, other
        seen.append(n)
    return None


def looks_like(name: str, other: str, where: str) -> str:
    """The refusal's sentence: ``'Аnn' looks like Ann: ...``."""
    return f"{name!r} looks like {other}: choose a name nobody could mistake for another's {where}"
