"""Building the Rust ports: lazy cargo builds with hot reload, and the C ABI."""
