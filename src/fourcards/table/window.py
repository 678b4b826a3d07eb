"""A sliding-window rate limit: at most ``burst`` events in any ``window_s`` seconds.

One rule, used by the table's chat (docs/rules.md TP-9: a person's messages) and by the web
server's limits per client address (creating tables, clubs and seats: docs/web.md "Security").
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["wait_for"]


def wait_for(times: Sequence[float], burst: int, window_s: float, now: float) -> float | None:
    """Seconds to wait before one more event is allowed, or ``None`` when it is allowed now.

    Args:
        times: when the earlier events happened (seconds, ascending; older ones may be left in).
        burst: events allowed in any window.
        window_s: the window's length, seconds.
        now: the time of the event asked for (the same clock as ``times``).

    Returns:
        ``None``, or the wait (at least 0.1 s) until the oldest of the last ``burst`` events in the
        window leaves it.
    """
    recent = [t for t in times if t > now - window_s]
    if len(recent) < burst:
        return None
    return max(0.1, recent[-burst] + window_s - now)
