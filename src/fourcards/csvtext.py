"""CSV that a spreadsheet opens as data, never as formulas: every CSV fourcards writes.

A spreadsheet that opens a CSV runs a cell that begins with ``=``, ``+``, ``-`` or
``@`` (and some with a tab or a carriage return first) as a formula: a player named
``=HYPERLINK("http://x","y")`` or ``+1+cmd|' /C calc'!A0`` would run it on the host's
machine ("CSV injection", OWASP). The rule applied here is OWASP's:

* a text cell that begins with one of those characters gets a leading apostrophe
  (``'=HYPERLINK(...)``): the spreadsheet shows the text, apostrophe hidden, and runs
  nothing; the name stays readable, and the same name in JSON is left as it is;
* so does every part of a text cell that a spreadsheet could read as a cell of its
  own: the part after a ``;`` (a spreadsheet set to a semicolon list separator splits
  on it, and quotes in mid-line mean nothing to it) or after a line break, and a
  formula character with only blanks or quotes before it (``" =1"``: some spreadsheets trim
  blanks) - the apostrophe goes just before that character (``"a;'=1+1"``);
* a text cell holding a separator (``,`` or ``;``), a double quote or a line break is
  written between double quotes (inner quotes doubled), RFC 4180;
* numbers (chips) are written as numbers: ``-40`` is a number, not a formula, and
  stays summable.

Source: OWASP, "CSV Injection" (the characters and the apostrophe); RFC 4180 (quoting).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["FORMULA_STARTS", "neutralise", "csv_cell", "csv_text", "version_rows"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = frozenset("=+-@\t\r")
_QUOTED = frozenset(',;"\r\n')
# a formula character with only blanks or quotes before it since the start, a ';' or a line break
_PART_FORMULA = re.compile(r"(?:^|(?<=[;\r\n]))([ \t\r\n\"]*)([=+\-@])")


def neutralise(text: str) -> str:
    """``text`` as a spreadsheet shows it and runs nothing: an apostrophe before every
    formula character that begins the text or a part of it (after blanks, a ``;`` or a
    line break), and a leading apostrophe when the text begins with a tab or a carriage
    return (:data:`FORMULA_STARTS`, OWASP). Text with no such start comes back as it is."""
    text = _PART_FORMULA.sub(r"\1'\2", text)
    return "'" + text if text[:1] in FORMULA_STARTS else text


def csv_cell(value: str | int | None) -> str:
    """One cell as CSV: a whole number as it is, ``None`` empty, text neutralised
    (:func:`neutralise`) and quoted when it holds a separator, a quote or a line break.

    Raises:
        TypeError: a value that is neither text, a whole number nor ``None`` (a float
            has no place in a chip CSV).
    """
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"a CSV cell is text or a whole number, got {type(value).__name__}")
    if isinstance(value, int):
        return str(value)
    text = neutralise(value)
    if any(ch in _QUOTED for ch in text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(rows: Iterable[Iterable[str | int | None]], *, lineterminator: str = "\r\n") -> str:
    """The CSV text of ``rows`` (every cell through :func:`csv_cell`), each row ended by
    ``lineterminator`` (RFC 4180's CRLF by default)."""
    lines = []
    for row in rows:
        line = ",".join(csv_cell(v) for v in row)
        lines.append((line or '""') + lineterminator)  # a row of one empty cell is not an empty line
    return "".join(lines)


def version_rows() -> list[list[str | int | None]]:
    """The last rows of a table's or a club's CSV export (issue 27): a blank row, then
    ``exported by,fourcards <version>`` - a section of its own after the data, like the others
    (CSV has no comment lines a spreadsheet would hide)."""
    from fourcards import __version__

    return [[None], ["exported by", f"fourcards {__version__}"]]
