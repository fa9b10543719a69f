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


class _Index:
    """A package index on this machine: PyPI's JSON API and crates.io's sparse index, as
    the real ones answer (urllib asks it over HTTP like any index)."""
    PAGES = {
        "/pypi/cuda-tile/json": json.dumps({"info": {"version": "1.7.0"}}),
        "/pypi/nvidia-cuda-tileiras/json": json.dumps({"info": {"version": "13.5.37"}}),
        "/crates/cu/ti/cutile": "\n".join(json.dumps(v) for v in (
            {"vers": "0.4.0", "yanked": False}, {"vers": "0.5.0", "yanked": False},
            {"vers": "0.5.1", "yanked": False},
            {"vers": "0.6.0-alpha", "yanked": False}, {"vers": "0.7.0", "yanked": True})),
    }

    def __enter__(self):
        import http.server
        import threading
        pages = self.PAGES

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = pages.get(self.path)
                self.send_response(200 if body else 404)
                self.end_headers()
                self.wfile.write((body or "").encode())

            def log_message(self, *args):
                pass
        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_port}"

    def __exit__(self, *exc):
        self.server.shutdown()


def test_doctor_says_which_versions_are_used_and_which_newer_ones_the_index_has(cli):
    with _Index() as url:
        result = cli("doctor", "--json", env={"WORKBENCH_PYPI_URL": f"{url}/pypi",
                                              "WORKBENCH_CRATES_INDEX": f"{url}/crates"})
    detail = {c["name"]: c for c in json.loads(result.stdout)}["toolchain versions"]["detail"]
    assert "cuda-tile 1.7.0 (the newest on PyPI)" in detail
    assert "nvidia-cuda-tileiras 13.4.92 (PyPI has 13.5.37)" in detail
    # the newest stable, unyanked release: not the pre-release, not the yanked one
    assert "cutile 0.5.0 (crates.io has 0.5.1)" in detail
    assert "pinned to the versions in use" in detail


def test_an_index_that_does_not_answer_is_named_not_waited_on(monkeypatch):
    import time
    from workbench.versions import toolchain_versions
    monkeypatch.setenv("WORKBENCH_PYPI_URL", "http://127.0.0.1:9/pypi")    # nothing listens
    monkeypatch.setenv("WORKBENCH_CRATES_INDEX", "http://127.0.0.1:9/crates")
    start = time.monotonic()
    found = toolchain_versions()
    assert time.monotonic() - start < 10
    assert all(v.newest is None and "no answer" in v.describe() for v in found)
    monkeypatch.setenv("WORKBENCH_OFFLINE", "1")
    assert "not asked: WORKBENCH_OFFLINE=1" in toolchain_versions()[0].describe()
