"""The Rust side of a port in one place: lazy cargo builds with hot reload (cargo,
toolchain), the port's manifest (port.toml), its C ABI (library, ffi) and its Tile IR
(emit). Knows `ir`; knows nothing of drafting."""
