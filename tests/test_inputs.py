"""One validation for every name a person types (table names, seat names, the host's
name, a void's reason): whitespace collapsed, no control, format or unassigned
characters, not blank, not too long (issue 9, item 6)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourcards.errors import InputError
from fourcards.inputs import clean_name


@pytest.mark.parametrize("bad", ["Rob\x07", "a\x00b", "tab\u202eelbat", "zero\u200bwidth", "\x1b[31mred",
                                 "   ", "", "line\u2028sep", "\ud800", "x\x7f", "priv\ue000ate"])
def test_typed_name_with_control_or_format_characters_refused(bad: str) -> None:
    with pytest.raises(InputError, match="name"):
        clean_name(bad)


def test_typed_name_too_long_refused_and_spaces_collapsed() -> None:
    assert clean_name("  Zoë   Ōtani\u3000 ") == "Zoë Ōtani"
    assert clean_name("Zoe\u0308") == "Zoë"  # one name however it was typed (NFC)
    assert clean_name("\u0645\u06cc\u200c\u0631\u0648\u062f") == "\u0645\u06cc\u200c\u0631\u0648\u062f"  # Persian ZWNJ
    assert clean_name("x" * 40) == "x" * 40
    with pytest.raises(InputError, match="at most 40"):
        clean_name("x" * 41)
    with pytest.raises(InputError, match="table name"):
        clean_name("\x07", field="table name", max_length=80)


@given(st.text(max_size=60))
def test_property_a_clean_name_is_printable_trimmed_and_short(text: str) -> None:
    try:
        name = clean_name(text)
    except InputError:
        return
    assert name and name == name.strip() and "  " not in name and len(name) <= 40
    assert all(ch.isprintable() or ch in "\u200c\u200d" for ch in name)  # joiners: Persian, emoji
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name)
