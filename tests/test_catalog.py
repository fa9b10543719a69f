from workbench.catalog import load_catalog
from workbench.ir.export import check_call
from workbench.sources.kernel import load_operator_kernel

FIRST_SIX = {"silu_and_mul", "softmax", "rms_norm", "layer_norm", "matmul", "attention"}


def test_first_six_operators_are_bundled():
    assert FIRST_SIX <= set(load_catalog())


def test_every_case_matches_its_kernel_parameters():
    for op in load_catalog().values():
        kernel = load_operator_kernel(op)
        assert set(op.outputs) <= set(kernel.params)
        for case in op.cases:
            check_call(kernel, list(case.args), case.consts)


def test_cases_cover_irregular_shapes_and_several_dtypes():
    for op in load_catalog().values():
        dtypes = {case.args[0].dtype for case in op.cases}
        assert len(dtypes) >= 2, op.name
        irregular = [c for c in op.cases
                     if any(d % 16 for a in c.args if a.is_array for d in a.shape)]
        assert irregular, f"{op.name} has no case with a dimension that is not a multiple of 16"
        for dtype in dtypes:
            assert dtype in op.tolerance, f"{op.name}: no tolerance for {dtype}"
