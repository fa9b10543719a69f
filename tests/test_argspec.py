import pytest

from workbench.argspec import ArgSpec, parse_arg, parse_const
from workbench.errors import WorkbenchError


def test_array_with_strides_and_offset():
    spec = parse_arg("f16[64,100]:strides=(200,1):offset=8")
    assert spec == ArgSpec("f16", (64, 100), (200, 1), 8)
    assert str(spec) == "f16[64,100]:strides=(200,1):offset=8"
    assert spec.itemsize == 2


def test_contiguous_strides_are_derived():
    assert parse_arg("f32[4,5,6]").effective_strides() == (30, 6, 1)


def test_scalars_with_and_without_value():
    assert parse_arg("i32") == ArgSpec("i32")
    assert parse_arg("f32=1e-5").value == 1e-5


@pytest.mark.parametrize("text, fragment", [
    ("f33[4]", "unknown dtype 'f33'"),
    ("f32[4,x]", "cannot read"),
    ("f32[4,4]:strides=(1)", "2 dims but 1 strides"),
    ("f32[4]:colour=red", "unknown option 'colour'"),
])
def test_bad_specs_say_what_is_wrong(text, fragment):
    with pytest.raises(WorkbenchError) as err:
        parse_arg(text)
    assert fragment in str(err.value)
    assert "what to do" in str(err.value)


def test_constants():
    assert parse_const("TILE=1024") == ("TILE", 1024)
    assert parse_const("FLAG=true") == ("FLAG", True)
    with pytest.raises(WorkbenchError):
        parse_const("TILE")
