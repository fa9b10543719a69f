"""Calling a port through its C symbol: descriptors from torch tensors (or anything with
`__cuda_array_interface__`), checked against the port's manifest before any launch."""
from __future__ import annotations

from ..catalog import Operator
from ..errors import WorkbenchError
from ..port.manifest import PortManifest, TensorRule, load_manifest
from .library import WbTensor

DTYPE_CODES = {"f32": 0, "f16": 1, "bf16": 2}
_TYPESTR = {"<f4": "f32", "<f2": "f16", "<V2": "bf16", "<f8": "f64", "<i4": "i32", "<i8": "i64"}
_TORCH = {"torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16",
          "torch.float64": "f64", "torch.int32": "i32", "torch.int64": "i64"}


class ArgumentError(WorkbenchError):
    """An argument the port cannot take; raised before any launch."""


def describe(name: str, array) -> tuple[WbTensor, str]:
    """A descriptor for a device array, and its dtype name."""
    if hasattr(array, "dtype") and str(getattr(array, "dtype")) in _TORCH:
        if not array.is_cuda:
            raise ArgumentError(f"{name}: on {array.device}, not a CUDA device",
                                f"move it with {name}.cuda()")
        dtype = _TORCH[str(array.dtype)]
        ptr, shape, strides = array.data_ptr(), tuple(array.shape), tuple(array.stride())
        device = array.device.index or 0
    elif hasattr(array, "__cuda_array_interface__"):
        iface = array.__cuda_array_interface__
        dtype = _TYPESTR.get(iface["typestr"], iface["typestr"])
        ptr, shape = iface["data"][0], tuple(iface["shape"])
        itemsize = int(iface["typestr"][2:])
        strides = tuple(s // itemsize for s in iface["strides"]) if iface.get("strides") else \
            _contiguous(shape)
        device = 0
    else:
        raise ArgumentError(f"{name}: {type(array).__name__} is not a device array",
                            "pass a CUDA torch tensor or an object with __cuda_array_interface__")
    if len(shape) > 4:
        raise ArgumentError(f"{name}: rank {len(shape)} > 4", "the C ABI carries up to 4 dims")
    desc = WbTensor(ptr=ptr, ndim=len(shape), dtype=DTYPE_CODES.get(dtype, -1), device=device)
    for i, (extent, stride) in enumerate(zip(shape, strides)):
        desc.shape[i], desc.strides[i] = extent, stride
    return desc, dtype


def _contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, running = [], 1
    for extent in reversed(shape):
        strides.append(running)
        running *= extent
    return tuple(reversed(strides))


def check(name: str, desc: WbTensor, dtype: str, rule: TensorRule) -> None:
    if desc.ndim != rule.rank:
        raise ArgumentError(f"{name}: rank {desc.ndim}, the port takes rank {rule.rank}",
                            "reshape the tensor")
    if dtype not in rule.dtypes:
        raise ArgumentError(f"{name}: dtype {dtype}, the port takes {', '.join(rule.dtypes)}",
                            f"convert with .to(...) to one of {', '.join(rule.dtypes)}")
    for dim in rule.unit_stride:
        if desc.shape[dim] > 1 and desc.strides[dim] != 1:
            raise ArgumentError(f"{name}: stride {desc.strides[dim]} in dim {dim}; the port "
                                "needs a unit stride there", "pass .contiguous()")


class CallPlan:
    """What a launch needs to know about an operator's parameters, worked out once."""

    def __init__(self, op: Operator, manifest: PortManifest | None = None):
        from ..ir.export import load_operator_kernel
        kernel = load_operator_kernel(op)
        manifest = manifest or load_manifest(op)
        self.runtime = [(name, manifest.tensors.get(name)) for name in kernel.params
                        if name not in kernel.const_params]
        self.consts = [name for name in kernel.params if name in kernel.const_params]

    def arguments(self, values: dict, consts: dict) -> tuple[list, list[float], list[int]]:
        """Checked descriptors, scalars and constants, in the C ABI's order."""
        tensors, scalars = [], []
        for name, rule in self.runtime:
            if rule is None:
                scalars.append(float(values[name]))
                continue
            desc, dtype = describe(name, values[name])
            check(name, desc, dtype, rule)
            tensors.append(desc)
        return tensors, scalars, [int(consts[name]) for name in self.consts]


def call(op: Operator, library, values: dict, consts: dict, stream: int,
         plan: CallPlan | None = None) -> None:
    """Launch the port on `values` (every runtime parameter by its Python name)."""
    tensors, scalars, const_values = (plan or CallPlan(op)).arguments(values, consts)
    library.launch(tensors, scalars, const_values, stream)


def rust_launcher(op: Operator, library_path: str | None, torch):
    """The worker's launcher for the Rust side: the given library (or a fresh build)."""
    from pathlib import Path
    from .library import load, open_library
    library = open_library(op.name, Path(library_path)) if library_path else load(op)[0]
    plan = CallPlan(op)

    def launch(values: dict, consts: dict, stream) -> None:
        call(op, library, values, consts, stream.cuda_stream, plan)
    launch.library, launch.plan = library, plan
    return launch
