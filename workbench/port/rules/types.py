"""The element types of one kernel's port: which arrays share a generic element type, which
are concrete, and how a DT is written in Rust.

    types = KernelTypes.of(spec)
    types.array["x"]            # DT over the dtype combinations
    types.rust(dt)              # "E" | "E1" | "f32" | ...  (Fail when no Rust type fits)
    types.generics              # [("E", DT), ...]  in declaration order

Arrays whose dtype varies over the cases get a generic (`E` for the first group, then `E1`,
`E2`, ..; arrays with equal dtypes in every case share one); an array of one dtype in every
case gets that concrete type, so that literals of its type can be written (cutile-rs has no
literal of a generic element type besides `E::ZERO`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..analyze import ARRAY, SCALAR, KernelSpec
from .dtypes import (ARGSPEC, ARGSPEC_OF, DT, NO_RUST_TYPE, RUST_NAMES, literal_text,
                     narrow_value, wrapped_unsigned)
from .values import Fail, NeedDtypes


@dataclass
class KernelTypes:
    combos: list[dict[str, str]]                    # per combination: param -> cuTile dtype
    array: dict[str, DT] = field(default_factory=dict)
    scalar: dict[str, DT] = field(default_factory=dict)
    generics: list[tuple[str, DT]] = field(default_factory=list)

    @classmethod
    def of(cls, spec: KernelSpec) -> "KernelTypes":
        runtime = [p for p in spec.params if p.kind in (ARRAY, SCALAR)]
        combos: list[dict[str, str]] = []
        for s in spec.specializations:
            combo = {p.name: ARGSPEC.get(s.dtypes.get(p.name, ""), s.dtypes.get(p.name, ""))
                     for p in runtime}
            if combo not in combos:
                combos.append(combo)
        if not combos:
            combos = [{p.name: ARGSPEC.get(p.dtypes[0], "float32") if p.dtypes else "float32"
                       for p in runtime}]
        types = cls(combos)
        for p in runtime:
            dt = DT(tuple(c[p.name] or "float32" for c in combos))
            (types.array if p.kind == ARRAY else types.scalar)[p.name] = dt
        for name, dt in types.array.items():
            if dt.uniform is None and all(g[1] != dt for g in types.generics):
                types.generics.append((f"E{len(types.generics) or ''}", dt))
        return types

    @property
    def n(self) -> int:
        return len(self.combos)

    def of_name(self, name: str) -> DT:
        return DT.of(name, self.n)

    def generic_of(self, dt: DT) -> str | None:
        return next((g for g, gdt in self.generics if gdt == dt), None)

    def rust(self, dt: DT, node=0) -> str:
        """The Rust element type of `dt`: a generic of the entry or a concrete type."""
        generic = self.generic_of(dt)
        if generic:
            return generic
        u = dt.uniform
        if u is None:
            raise Fail(node, "dtype", f"a value whose dtype is {dt.text()} over the cases is no "
                                      "generic of the port (no array has those dtypes)")
        if u in NO_RUST_TYPE:
            raise Fail(node, "dtype", f"{u}: cutile 0.5.0 {NO_RUST_TYPE[u]}")
        if u not in RUST_NAMES:
            raise Fail(node, "dtype", f"{u} has no cutile element type")
        return RUST_NAMES[u]

    def array_generic(self, name: str) -> str:
        return self.rust(self.array[name])

    def literal(self, value, dt: DT, node) -> str:
        """A Python literal as a Rust value of `dt` (cuTile's typed constant)."""
        generic = self.generic_of(dt)
        if generic:
            if value == 0 and not isinstance(value, bool):
                return f"{generic}::ZERO"
            # cutile spells no literal of a generic type (ElementType has only ZERO): one
            # entry per dtype, each with concrete types
            raise NeedDtypes(node, f"{value!r} as the generic element type {generic}")
        self.rust(dt, node)
        if wrapped_unsigned(value, dt.uniform) is not None:
            raise Fail(node, "literal", f"{value!r} as {dt.uniform}: cutile 0.5.0 writes an "
                       "unsigned literal above its signed type's largest value as 0; write it "
                       "as a tile constant (its bits as the signed type, bitcast), or port by hand")
        text = literal_text(value, dt.uniform)
        if text is None:
            raise Fail(node, "literal", f"{value!r} as {dt.uniform}: cutile 0.5.0 has no "
                       f"{RUST_NAMES.get(dt.uniform, dt.uniform)} literal (its constant() takes "
                       "a half value only as ZERO, ONE, NEG_INFINITY, INFINITY or E); ct.astype "
                       "to float32")
        return text

    def narrow_literal(self, value, dt: DT) -> str | None:
        """For a literal a narrow float type (f16 / bf16 / tf32 / fp8) of `dt` spells no
        Rust literal of: the f32 literal of the value cuTile's constant holds (the port
        converts it; the IR diff folds `constant f32; ftof` when exact), else None."""
        if self.generic_of(dt) or dt.uniform is None or literal_text(value, dt.uniform):
            return None
        narrow = narrow_value(value, dt.uniform)
        return None if narrow is None else literal_text(narrow, "float32")

    def restrict(self, index: int) -> "KernelTypes":
        """The types of one dtype combination: every element type concrete."""
        combo = self.combos[index]
        one = KernelTypes([combo])
        one.array = {n: DT((dt.names[index],)) for n, dt in self.array.items()}
        one.scalar = {n: DT((dt.names[index],)) for n, dt in self.scalar.items()}
        return one

    def dtype_key(self, index: int) -> dict[str, str]:
        """{"dtype(x)": "f16", ..}: the combination's dtype of each generic group (its first
        array), as port.toml [entries] keys."""
        out = {}
        for g, dt in self.generics:
            first = next(name for name, adt in self.array.items() if adt == dt)
            out[f"dtype({first})"] = ARGSPEC_OF.get(dt.names[index], dt.names[index])
        return out

    def dtype_generics(self) -> list[str]:
        """port.toml `generics` entries for the element types: dtype(<first array>)."""
        out = []
        for g, dt in self.generics:
            first = next(name for name, adt in self.array.items() if adt == dt)
            out.append(f"dtype({first})")
        return out
