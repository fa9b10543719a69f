//! All ports (and the planted faulty fixture) in one cdylib. Naming each symbol keeps it in the link (a cdylib exports
//! only what it reaches from its own crate).

pub use port_attention::{wb_attention, wb_attention_build_id, wb_attention_emit};
pub use port_layer_norm::{wb_layer_norm, wb_layer_norm_build_id, wb_layer_norm_emit};
pub use port_matmul::{wb_matmul, wb_matmul_build_id, wb_matmul_emit};
pub use port_rms_norm::{wb_rms_norm, wb_rms_norm_build_id, wb_rms_norm_emit};
pub use port_silu_and_mul::{wb_silu_and_mul, wb_silu_and_mul_build_id, wb_silu_and_mul_emit};
pub use port_softmax::{wb_softmax, wb_softmax_build_id, wb_softmax_emit};
pub use port_oob_store::{wb_oob_store, wb_oob_store_build_id, wb_oob_store_emit};
pub use wb_ffi::{wb_free, wb_last_error};
