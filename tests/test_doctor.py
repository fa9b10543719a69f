import json


def test_doctor_passes_on_the_no_gpu_path(cli):
    result = cli("doctor", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    checks = {c["name"]: c for c in json.loads(result.stdout)}
    assert checks["cuda-tile"]["status"] == "ok"
    assert checks["tileiras compiles for sm_90"]["status"] == "ok"
    assert checks["libNVVM and ptxas match tileiras"]["status"] == "ok"


def test_doctor_explains_the_cuda_home_trap(cli, tmp_path):
    # tileiras loads libNVVM from $CUDA_HOME when set; a wrong one breaks every compile.
    result = cli("doctor", env={"CUDA_HOME": str(tmp_path)})
    assert "[WARN] CUDA_HOME" in result.stdout
    assert "unset CUDA_HOME" in result.stdout
    assert "[FAIL] tileiras compiles for sm_90" in result.stdout
