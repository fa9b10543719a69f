"""Every op the interpreter runs, in one table: op name -> builder. A builder reads the op's text
once (`build(op, text, compiler)`) and returns an Instr whose `run(state, values)` executes it.
An op missing here is refused by name when the kernel is compiled (UnsupportedOp)."""
from __future__ import annotations

from . import (op_arith as arith, op_control as control, op_convert as convert,
               op_memory as memory, op_misc as misc, op_mma as mma, op_reduce as reduce,
               op_shape as shape)

BUILDERS = {
    # float element-wise
    **{name: arith.build_float_binary for name in arith.FLOAT_BINARY},
    **{name: arith.build_float_unary for name in arith.FLOAT_UNARY},
    "maxf": arith.build_minmax_f, "minf": arith.build_minmax_f,
    "fma": arith.build_fma,
    # integer element-wise
    **{name: arith.build_int_binary for name in
       ("addi", "subi", "muli", "andi", "ori", "xori", "maxi", "mini", "shli", "shri",
        "divi", "remi", "mulhii")},
    "negi": arith.build_int_unary, "absi": arith.build_int_unary,
    "cmpi": arith.build_cmpi, "cmpf": arith.build_cmpf, "select": arith.build_select,
    # conversions
    "ftof": convert.build_ftof, "itof": convert.build_itof, "ftoi": convert.build_ftoi,
    "exti": convert.build_exti, "trunci": convert.build_trunci, "bitcast": convert.build_bitcast,
    "int_to_ptr": convert.build_pointer_cast, "ptr_to_int": convert.build_pointer_cast,
    "ptr_to_ptr": convert.build_pointer_cast,
    # tiles
    "constant": shape.build_constant, "iota": shape.build_iota,
    "broadcast": shape.build_broadcast, "reshape": shape.build_reshape,
    "permute": shape.build_permute, "extract": shape.build_extract, "cat": shape.build_cat,
    # reductions and matrix products
    "reduce": reduce.build_reduce, "scan": reduce.build_scan,
    "mmaf": mma.build_mmaf, "mmai": mma.build_mmai,
    # memory
    "make_tensor_view": memory.build_make_tensor_view,
    "make_partition_view": memory.build_make_partition_view,
    "get_index_space_shape": memory.build_get_index_space_shape,
    "get_tensor_shape": memory.build_get_tensor_shape,
    "load_view_tko": memory.build_load_view, "store_view_tko": memory.build_store_view,
    "offset": memory.build_offset,
    "load_ptr_tko": memory.build_load_ptr, "store_ptr_tko": memory.build_store_ptr,
    "atomic_rmw_tko": memory.build_atomic_rmw, "atomic_cas_tko": memory.build_atomic_cas,
    # control flow
    "for": control.build_for, "loop": control.build_loop, "if": control.build_if,
    "yield": control.build_terminator, "continue": control.build_terminator,
    "break": control.build_terminator, "return": control.build_terminator,
    # the rest
    "make_token": misc.build_token, "join_tokens": misc.build_token,
    "get_tile_block_id": misc.build_block_id, "get_num_tile_blocks": misc.build_num_blocks,
    "assume": misc.build_assume, "assert": misc.build_assert, "print_tko": misc.build_print,
}


def covered_ops() -> set[str]:
    return set(BUILDERS)
