"""A user's script recorded and its kernel ported, as the tests of recorded targets do it."""
from pathlib import Path


def record_and_port(cli, script: Path, folder: Path, timeout: float = 900):
    """`workbench record SCRIPT --out folder/rec.json`, then `workbench port --record` of it
    into folder/port: the port command's result."""
    recorded = cli("record", str(script), "--out", str(folder / "rec.json"))
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    return cli("port", "--record", str(folder / "rec.json"), "--out", str(folder / "port"),
               timeout=timeout)
