"""Issue 14: faster counting must give the very same dealer counts (a digest of every entry)."""

from __future__ import annotations

import hashlib

import numpy as np

#: sha256 of le then lt, little-endian int32, (13, 484731) each, as computed before issue 14.
COUNTS_SHA256 = "a4873f9da33e96948d2486d2512afc8bba39047721f1338eb2ad6498f8ea5ed5"


def _digest(counts) -> str:
    le = np.ascontiguousarray(counts.le, dtype="<i4").tobytes()
    lt = np.ascontiguousarray(counts.lt, dtype="<i4").tobytes()
    return hashlib.sha256(le + lt).hexdigest()


def test_issue14_dealer_counts_digest_unchanged(counts):
    assert counts.le.shape == (13, 484_731)
    assert _digest(counts) == COUNTS_SHA256


def test_issue14_entries_without_counts_are_exactly_the_hands_holding_the_up_card(counts):
    assert np.array_equal(counts.valid, ~counts.tables.orbit_has_up())
    assert (counts.le[~counts.valid] == -1).all() and (counts.lt[~counts.valid] == -1).all()
