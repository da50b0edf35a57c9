"""The server's rule for text: no NUL, no lone UTF-16 surrogate and no other control character (line breaks
and tabs are allowed where a text may span lines), so that nothing the database or the JSON encoder would
choke on is stored.

A leaf module, so that every layer can check text with it: the HTTP and websocket input types
(`api/inputs.py`), and the command lines (`miai admin`, `miai mail`) that read names from argv.
"""

from __future__ import annotations

import re

LINE_BREAKS = frozenset("\n\r\t")

# Unicode category Cc (C0 controls, DEL, C1 controls) and the surrogate range: one search, so a clean text
# (the common case, e.g. every move on the hot path) costs a single regex scan.
_REFUSED = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_text(value: str, multiline: bool = False) -> str:
    """The text itself, or ValueError saying which character is refused (and where)."""
    for found in _REFUSED.finditer(value):
        char, index = found.group(), found.start()
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"a lone surrogate (U+{code:04X}) at position {index} is not text")
        if multiline and char in LINE_BREAKS:
            continue
        raise ValueError(f"control character U+{code:04X} at position {index} is not allowed")
    return value
