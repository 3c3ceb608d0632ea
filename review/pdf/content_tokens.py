"""Content streams token by token (Django-free): a lexer just enough to find operators
and their operands (`lex`, `operations`), and the regex pieces that find operators by
pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

_DELIMS = b"()<>[]{}/%"
_WHITE = b" \t\r\n\f\x00"
# Regex pieces for finding operators by pattern: white space, a name operand (the name
# without its slash is group 1), and the end of a token.
WHITE = rb"[\x00\t\n\f\r ]"
NAME = rb"/([^\x00\t\n\f\r ()<>\[\]{}/%]+)"
TOKEN_END = rb"(?=[\x00\t\n\f\r ()<>\[\]{}/%]|\Z)"
SHOWS = (b"Tj", b"TJ", b"'", b'"')  # the operators that show text
# An XObject drawn by name ("/Fm0 Do"; the name is group 1).
DRAWS = re.compile(NAME + WHITE + rb"*Do" + TOKEN_END)


def lex(data: bytes) -> Iterator[tuple[int, int, bool]]:
    """Yield (start, end, is_operator) for each token; an inline image is one "BI" token."""
    i, n, depth = 0, len(data), 0
    while i < n:
        c = data[i]
        if c in _WHITE:
            i += 1
        elif c == 0x25:  # % comment
            while i < n and data[i] not in b"\r\n":
                i += 1
        elif c == 0x28:  # ( literal string, nested parentheses and escapes
            start, level = i, 0
            while i < n:
                if data[i] == 0x5C:
                    i += 2
                    continue
                level += {0x28: 1, 0x29: -1}.get(data[i], 0)
                i += 1
                if level == 0:
                    break
            yield start, i, False
        elif data.startswith(b"<<", i) or data.startswith(b">>", i):
            depth += 1 if data[i] == 0x3C else -1
            yield i, i + 2, False
            i += 2
        elif c == 0x3C:  # <hex string>
            end = data.find(b">", i)
            end = n if end < 0 else end + 1
            yield i, end, False
            i = end
        elif c in b"[]{}":
            depth += 1 if c in b"[{" else -1
            yield i, i + 1, False
            i += 1
        else:
            start = i
            i += 1
            while i < n and data[i] not in _WHITE and data[i] not in _DELIMS:
                i += 1
            if c == 0x2F:
                yield start, i, False
                continue
            word = data[start:i]
            if word == b"BI":  # inline image: skip binary data up to a delimited EI
                end = data.find(b"EI", i)
                while end >= 0 and not (
                    data[end - 1] in _WHITE and (end + 2 >= n or data[end + 2] in _WHITE)
                ):
                    end = data.find(b"EI", end + 2)
                i = n if end < 0 else end + 2
                yield start, i, True
                continue
            is_operator = depth == 0 and not is_operand(word)
            yield start, i, is_operator


def is_operand(word: bytes) -> bool:
    if word in (b"true", b"false", b"null", b"R"):
        return True
    try:
        float(word)
    except ValueError:
        return False
    return True


class Operation(NamedTuple):
    start: int  # of its first operand, or of the operator when it has none
    end: int  # after the operator
    operator: bytes
    operands: list[bytes]


def operations(data: bytes) -> Iterator[Operation]:
    """The operations of a content stream, in order; what lies between them (white
    space, comments) and any operands left without an operator at the end are not."""
    operands: list[tuple[int, int]] = []
    for start, end, is_operator in lex(data):
        if not is_operator:
            operands.append((start, end))
            continue
        first = operands[0][0] if operands else start
        yield Operation(first, end, data[start:end], [data[a:b] for a, b in operands])
        operands = []
