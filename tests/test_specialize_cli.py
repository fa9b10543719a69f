"""`workbench specialize`: calls -> the kernels the JIT compiles -> what a port declares."""
import json

from conftest import FIXTURES

BRANCHY = f"{FIXTURES}/branchy.py:branchy"


def test_calls_group_by_compiled_kernel(cli):
    result = cli("specialize", BRANCHY, "--call", "f32[4096] f32[4096] i32",
                 "--call", "f32[8192] f32[8192] i32", "--call", "f32[4100] f32[4100] i32",
                 "--call", "f16[4096] f16[4096] i32", "--const", "FLAG=1", "--json")
    assert result.returncode == 0, result.stderr
    calls = json.loads(result.stdout)
    assert calls[0]["group"] == calls[1]["group"]            # both aligned, both % 16
    assert len({c["group"] for c in calls}) == 3
    assert calls[3]["symbol"].startswith("branchy_Kt1_A1f16_")
    # an aligned, divisible call can run the kernel compiled for the odd length; not back
    assert 0 in calls[2]["serves"] and 2 not in calls[0]["serves"]


def test_misaligned_and_transposed_views(cli):
    result = cli("specialize", BRANCHY, "--call", "f32[4096]:offset=1 f32[4096] i32",
                 "--const", "FLAG=0", "--json")
    facts = json.loads(result.stdout)[0]["arrays"][0]
    assert facts["base_aligned"] is False and facts["unit_stride"] == [True]


def test_table_names_the_constant_branch(cli):
    result = cli("specialize", BRANCHY, "--call", "f32[4096] f32[4096] i32", "--const", "FLAG=1")
    assert result.returncode == 0, result.stderr
    assert "constants tested by an `if` (FLAG)" in result.stdout
    assert "size % 16 == 0" in result.stdout


def test_ir_diff_between_two_specializations(cli):
    result = cli("specialize", BRANCHY, "--call", "f32[4096] f32[4096] i32",
                 "--call", "f32[4096]:offset=1 f32[4096] i32", "--const", "FLAG=1",
                 "--diff", "0", "1")
    assert result.returncode == 0, result.stderr
    # the base's alignment lost by the second call, in bytes, judged with both kernels' SASS
    assert "view0.base: div_by<16> (16 B) -> (none)" in result.stdout
    assert "machine code: same SASS (the kernels of call 0 and call 1)" in result.stdout


def test_operator_cases_are_the_default_calls(cli):
    result = cli("specialize", "softmax", "--json")
    calls = json.loads(result.stdout)
    assert [c["call"].split()[0] for c in calls] == ["f32[256,1000]", "f16[128,4096]", "bf16[37,777]",
                                                     "f16[16384,4096]"]
