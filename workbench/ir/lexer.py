"""Tokens of Tile IR text, grouped by brackets; errors carry line and column."""
from __future__ import annotations

import re

from ..errors import WorkbenchError
from .model import Group, Node, Token

_TOKEN = re.compile(r"""
   (?P<ws>\s+)
 | (?P<string>"(?:[^"\\]|\\.)*")
 | (?P<value>%[A-Za-z0-9_$.\-]+(?:\#\d+)?)
 | (?P<symbol>@[A-Za-z0-9_$.]+)
 | (?P<alias>\#[A-Za-z_][A-Za-z0-9_$.]*)
 | (?P<arrow>->)
 | (?P<number>-?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?))
 | (?P<typed>[A-Za-z_][A-Za-z0-9_$.]*<)
 | (?P<ident>[A-Za-z_][A-Za-z0-9_$.]*)
 | (?P<punct>[()\[\]{}<>,:=?*+\-!|/])
""", re.VERBOSE)

_CLOSERS = {"(": ")", "[": "]", "<": ">", "{": "}"}


class ParseError(WorkbenchError):
    """Malformed Tile IR: names the line and column and quotes the line."""

    def __init__(self, message: str, line: int, column: int, text: str, source: str = ""):
        where = f"{source}:" if source else "line "
        caret = " " * (column - 1) + "^"
        super().__init__(f"{where}{line}:{column}: {message}\n  {text}\n  {caret}",
                         "the text must be Tile IR as tileirdisasm prints it")
        self.reason, self.line, self.column, self.text = message, line, column, text


def tokenize(text: str, line_no: int, column0: int = 1, source: str = "") -> list[tuple[Token, int]]:
    """Tokens of one line with their 1-based columns.

    A word directly followed by `<` (`tile<128x32xf16>`, `div_by<16>`, `partition_view<...>`)
    is one `typed` token up to its matching `>`: types and attributes never contain values,
    and keeping them whole makes the parser several times faster.
    """
    tokens, pos, space, end = [], 0, False, len(text)
    match_at = _TOKEN.match
    while pos < end:
        match = match_at(text, pos)
        if match is None:
            raise ParseError(f"unexpected character {text[pos]!r}", line_no, column0 + pos,
                             text, source)
        kind = match.lastgroup
        if kind == "ws":
            space = True
            pos = match.end()
            continue
        stop = _angle_end(text, match.end(), line_no, column0 + pos, source) \
            if kind == "typed" else match.end()
        tokens.append((Token(kind, text[pos:stop], space), column0 + pos))
        space, pos = False, stop
    return tokens


def _angle_end(text: str, pos: int, line_no: int, column: int, source: str) -> int:
    """Index just past the `>` matching the `<` before `pos`."""
    depth = 1
    while pos < len(text):
        char = text[pos]
        if char == "<":
            depth += 1
        elif char == ">" and text[pos - 1] != "-":
            depth -= 1
            if depth == 0:
                return pos + 1
        elif char == '"':
            close = text.find('"', pos + 1)
            pos = close if close != -1 else len(text)
        pos += 1
    raise ParseError("'<' is never closed", line_no, column, text, source)


def group(tokens: list[tuple[Token, int]], line_no: int, text: str,
          source: str = "") -> list[Node]:
    """Nest bracketed tokens into Groups; unbalanced brackets are a ParseError."""
    stack: list[tuple[Token, int, list[Node]]] = []
    top: list[Node] = []
    for tok, col in tokens:
        if tok.kind == "punct" and tok.text in _CLOSERS:
            stack.append((tok, col, top))
            top = []
        elif tok.kind == "punct" and tok.text in _CLOSERS.values():
            if not stack:
                raise ParseError(f"unmatched {tok.text!r}", line_no, col, text, source)
            open_tok, open_col, outer = stack.pop()
            if _CLOSERS[open_tok.text] != tok.text:
                raise ParseError(f"{tok.text!r} closes {open_tok.text!r} opened at column "
                                 f"{open_col}", line_no, col, text, source)
            outer.append(Group(open_tok, top, tok))
            top = outer
        else:
            top.append(tok)
    if stack:
        open_tok, open_col, _ = stack[-1]
        raise ParseError(f"{open_tok.text!r} is never closed", line_no, open_col, text, source)
    return top
