//! All ports (and the planted faulty fixture) in one cdylib, written by
//! tools/sync_bundle.py. Naming each symbol keeps it in the link (a cdylib exports
//! only what it reaches from its own crate).

pub use port_attention::{wb_attention, wb_attention_build_id, wb_attention_emit};
pub use port_layer_norm::{wb_layer_norm, wb_layer_norm_build_id, wb_layer_norm_emit};
pub use port_matmul::{wb_matmul, wb_matmul_build_id, wb_matmul_emit};
pub use port_oob_store::{wb_oob_store, wb_oob_store_build_id, wb_oob_store_emit};
pub use port_rms_norm::{wb_rms_norm, wb_rms_norm_build_id, wb_rms_norm_emit};
pub use port_silu_and_mul::{wb_silu_and_mul, wb_silu_and_mul_build_id, wb_silu_and_mul_emit};
pub use port_softmax::{wb_softmax, wb_softmax_build_id, wb_softmax_emit};
pub use port_tilegym_attention_forward::{wb_tilegym_attention_forward, wb_tilegym_attention_forward_build_id, wb_tilegym_attention_forward_emit};
pub use port_tilegym_attention_sink_forward::{wb_tilegym_attention_sink_forward, wb_tilegym_attention_sink_forward_build_id, wb_tilegym_attention_sink_forward_emit};
pub use port_tilegym_attention_sink_decode_split_kv::{wb_tilegym_attention_sink_decode_split_kv, wb_tilegym_attention_sink_decode_split_kv_build_id, wb_tilegym_attention_sink_decode_split_kv_emit};
pub use port_tilegym_flash_decode_grouped::{wb_tilegym_flash_decode_grouped, wb_tilegym_flash_decode_grouped_build_id, wb_tilegym_flash_decode_grouped_emit};
pub use port_tilegym_gemma_attention_forward::{wb_tilegym_gemma_attention_forward, wb_tilegym_gemma_attention_forward_build_id, wb_tilegym_gemma_attention_forward_emit};
pub use port_tilegym_gemma_attention_decode_grouped::{wb_tilegym_gemma_attention_decode_grouped, wb_tilegym_gemma_attention_decode_grouped_build_id, wb_tilegym_gemma_attention_decode_grouped_emit};
pub use port_tilegym_mla_prefill::{wb_tilegym_mla_prefill, wb_tilegym_mla_prefill_build_id, wb_tilegym_mla_prefill_emit};
pub use port_tilegym_mla_decoding_absorb::{wb_tilegym_mla_decoding_absorb, wb_tilegym_mla_decoding_absorb_build_id, wb_tilegym_mla_decoding_absorb_emit};
pub use port_tilegym_mla_decoding_split_kv_absorb::{wb_tilegym_mla_decoding_split_kv_absorb, wb_tilegym_mla_decoding_split_kv_absorb_build_id, wb_tilegym_mla_decoding_split_kv_absorb_emit};
pub use port_tilegym_rms_norm_multi_wave_cached::{wb_tilegym_rms_norm_multi_wave_cached, wb_tilegym_rms_norm_multi_wave_cached_build_id, wb_tilegym_rms_norm_multi_wave_cached_emit};
pub use port_tilegym_silu_and_mul_row_wise::{wb_tilegym_silu_and_mul_row_wise, wb_tilegym_silu_and_mul_row_wise_build_id, wb_tilegym_silu_and_mul_row_wise_emit};
pub use port_tilegym_softmax_gather::{wb_tilegym_softmax_gather, wb_tilegym_softmax_gather_build_id, wb_tilegym_softmax_gather_emit};
pub use port_tilegym_softmax_multi_wave::{wb_tilegym_softmax_multi_wave, wb_tilegym_softmax_multi_wave_build_id, wb_tilegym_softmax_multi_wave_emit};
pub use port_tilegym_softmax_tma::{wb_tilegym_softmax_tma, wb_tilegym_softmax_tma_build_id, wb_tilegym_softmax_tma_emit};
pub use port_tilegym_splitk_reduce_reduce::{wb_tilegym_splitk_reduce_reduce, wb_tilegym_splitk_reduce_reduce_build_id, wb_tilegym_splitk_reduce_reduce_emit};
pub use port_tilegym_swiglu_forward::{wb_tilegym_swiglu_forward, wb_tilegym_swiglu_forward_build_id, wb_tilegym_swiglu_forward_emit};
pub use wb_ffi::{wb_free, wb_last_error};
