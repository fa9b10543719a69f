"""Parser for the Tile IR text that `tileirdisasm` prints.

The text is line-structured: an entry header ending in `{`, one op per line, regions
opened by a trailing `{` (with an optional `(%a: t, ...) {` block-argument line) and
closed by `}` lines, then `#alias = ...` lines. Anything else is a ParseError with the
line, the column and the line itself.
"""
from __future__ import annotations

from .lexer import ParseError, group, tokenize
from .model import (Block, BlockArg, Entry, Group, Module, Node, Operation, Region, Result,
                    Token, gc_paused)
from .printer import print_nodes


def parse(text: str, source: str = "") -> Module:
    with gc_paused():
        return _Parser(text, source).module()


class _Parser:
    def __init__(self, text: str, source: str):
        self.lines = text.splitlines()
        self.source = source
        self.pos = 0          # index of the next line to read

    # -- lines --------------------------------------------------------------------------
    def _peek(self) -> tuple[int, str] | None:
        while self.pos < len(self.lines) and not self.lines[self.pos].strip():
            self.pos += 1
        if self.pos >= len(self.lines):
            return None
        return self.pos + 1, self.lines[self.pos]

    def _next(self) -> tuple[int, str]:
        item = self._peek()
        if item is None:
            last = len(self.lines)
            raise ParseError("unexpected end of text (a region is not closed)", last, 1,
                             self.lines[-1] if self.lines else "", self.source)
        self.pos += 1
        return item

    def _error(self, message: str, line_no: int, column: int = 1) -> ParseError:
        return ParseError(message, line_no, column, self.lines[line_no - 1], self.source)

    def _tokens(self, line_no: int, text: str) -> list[tuple[Token, int]]:
        return tokenize(text, line_no, 1, self.source)

    def _group(self, tokens, line_no: int) -> list[Node]:
        return group(tokens, line_no, self.lines[line_no - 1], self.source)

    # -- module -------------------------------------------------------------------------
    def module(self) -> Module:
        module = Module()
        while (item := self._peek()) is not None:
            line_no, text = item
            stripped = text.strip()
            if stripped.startswith("#"):
                self.pos += 1
                name, sep, definition = stripped.partition("=")
                if not sep or not name.strip()[1:]:
                    raise self._error("expected `#name = definition`", line_no)
                module.aliases[name.strip()] = definition.strip()
            else:
                module.entries.append(self._entry())
        if not module.entries:
            raise ParseError("no entry found", 1, 1, self.lines[0] if self.lines else "",
                             self.source)
        return module

    def _entry(self) -> Entry:
        line_no, text = self._next()
        tokens = self._tokens(line_no, text)
        if len(tokens) < 3 or tokens[0][0].kind != "ident" or tokens[1][0].kind != "symbol":
            col = tokens[0][1] if tokens else 1
            raise self._error("expected `entry @name(...) {`", line_no, col)
        if tokens[-1][0].text != "{":
            raise self._error("expected `{` at the end of the entry line", line_no, len(text))
        nodes = self._group(tokens[2:-1], line_no)
        if not nodes or not isinstance(nodes[0], Group) or nodes[0].open.text != "(":
            raise self._error("expected the argument list `(...)`", line_no, tokens[2][1])
        args = self._block_args(nodes[0], line_no)
        block = self._block(line_no)
        end_no, end_text = self._next()
        loc, rest = self._close_line(end_no, end_text)
        if rest:
            raise self._error("unexpected text after the entry's closing `}`", end_no)
        return Entry(keyword=tokens[0][0].text, symbol=tokens[1][0].text[1:], args=args,
                     attrs=nodes[1:], block=block, loc=loc, line=line_no)

    def _block_args(self, group_node: Group, line_no: int) -> list[BlockArg]:
        args, current = [], []
        for node in group_node.items + [Token("punct", ",")]:
            if isinstance(node, Token) and node.text == ",":
                if not current:
                    continue
                head = current[0]
                if (not isinstance(head, Token) or head.kind != "value" or len(current) < 3
                        or not isinstance(current[1], Token) or current[1].text != ":"):
                    raise self._error("expected `%name: type` in an argument list", line_no)
                args.append(BlockArg(head.text, current[2:]))
                current = []
            else:
                current.append(node)
        return args

    # -- blocks and ops -------------------------------------------------------------------
    def _block(self, opened_at: int, args: list[BlockArg] | None = None) -> Block:
        """Ops up to (not including) the `}` line that closes the block."""
        block = Block(args=args)
        while True:
            item = self._peek()
            if item is None:
                raise self._error("this `{` is never closed", opened_at,
                                  max(1, len(self.lines[opened_at - 1])))
            if item[1].strip().startswith("}"):
                return block
            block.ops.append(self._op())

    def _op(self) -> Operation:
        line_no, text = self._next()
        tokens = self._tokens(line_no, text)
        opens_region = bool(tokens) and tokens[-1][0].text == "{"
        if opens_region:
            tokens = tokens[:-1]
        nodes = self._group(tokens, line_no)
        nodes, loc = _split_loc(nodes)
        results, rest = self._results(nodes, line_no)
        if not rest or not isinstance(rest[0], Token) or rest[0].kind != "ident":
            raise self._error("expected an operation name", line_no, _first_col(tokens))
        op = Operation(name=rest[0].text, results=results, body=rest[1:], loc=loc, line=line_no)
        if loc is not None and opens_region:
            raise self._error("an op with a region has its loc after the closing `}`", line_no)
        if opens_region or self._block_args_line_follows():
            self._regions(op, line_no, opens_region)
        return op

    def _results(self, nodes: list[Node], line_no: int) -> tuple[list[Result], list[Node]]:
        eq = next((i for i, n in enumerate(nodes)
                   if isinstance(n, Token) and n.text == "=" and n.kind == "punct"), None)
        if eq is None or not (isinstance(nodes[0], Token) and nodes[0].kind == "value"):
            return [], nodes
        results, i, head = [], 0, nodes[:eq]
        while i < len(head):
            tok = head[i]
            if not isinstance(tok, Token) or tok.kind != "value" or "#" in tok.text:
                raise self._error("expected a result name like %x or %x:2", line_no)
            count = 1
            if i + 2 < len(head) and isinstance(head[i + 1], Token) and head[i + 1].text == ":":
                count_tok = head[i + 2]
                if not isinstance(count_tok, Token) or not count_tok.text.isdigit():
                    raise self._error("expected a result count after `:`", line_no)
                count, i = int(count_tok.text), i + 2
            results.append(Result(tok.text, count))
            i += 1
            if i < len(head):
                if not (isinstance(head[i], Token) and head[i].text == ","):
                    raise self._error("expected `,` between result names", line_no)
                i += 1
        return results, nodes[eq + 1:]

    def _block_args_line_follows(self) -> bool:
        item = self._peek()
        if item is None:
            return False
        stripped = item[1].strip()
        return stripped.startswith("(") and stripped.endswith("{")

    def _regions(self, op: Operation, line_no: int, opened: bool) -> None:
        opener: list[Node] = []
        while True:
            args = None
            if not opened:
                args_no, args_text = self._next()
                tokens = self._tokens(args_no, args_text)[:-1]
                nodes = self._group(tokens, args_no)
                if len(nodes) != 1 or not isinstance(nodes[0], Group):
                    raise self._error("expected `(%arg: type, ...) {`", args_no)
                args, line_no = self._block_args(nodes[0], args_no), args_no
            block = self._block(line_no, args)
            op.regions.append(Region(block=block, opener=opener))
            end_no, end_text = self._next()
            loc, rest = self._close_line(end_no, end_text)
            if rest and rest[-1].text == "{" and loc is None:
                opener = self._group([(t, c) for t, c in self._tokens(end_no, end_text)][1:-1],
                                     end_no)
                opened, line_no = True, end_no
                continue
            if rest:
                raise self._error("unexpected text after `}`", end_no)
            op.loc = loc
            return

    def _close_line(self, line_no: int, text: str) -> tuple[str | None, list[Token]]:
        tokens = self._tokens(line_no, text)
        if not tokens or tokens[0][0].text != "}":
            raise self._error("expected `}`", line_no, _first_col(tokens))
        rest = tokens[1:]
        if rest and rest[-1][0].text == "{":
            return None, [t for t, _ in rest]
        nodes, loc = _split_loc(self._group(rest, line_no))
        if nodes:
            raise self._error("unexpected text after `}`", line_no, rest[0][1])
        return loc, []


def _split_loc(nodes: list[Node]) -> tuple[list[Node], str | None]:
    """Strip a trailing `loc(...)` and return its inner text."""
    if (len(nodes) >= 2 and isinstance(nodes[-1], Group) and nodes[-1].open.text == "("
            and isinstance(nodes[-2], Token) and nodes[-2].text == "loc"):
        return nodes[:-2], print_nodes(nodes[-1].items)
    return nodes, None


def _first_col(tokens) -> int:
    return tokens[0][1] if tokens else 1
