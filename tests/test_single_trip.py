"""The `single_trip_index` rule: in a loop that runs once, `index * TILE` is a constant (cutile
folds it, cuTile Python keeps the muli), so a row that fits one tile diffs clean; a loop of
more trips, or of bounds not known, keeps its arithmetic."""
from workbench.ir.normalize import normalize
from workbench.ir.parse import parse
from workbench.ir.printer import print_module


def _loop(upper: str, step: str = "1") -> str:
    """The shape of TileGym's rms_norm gather loop: offs = j * TILE + arange(TILE)."""
    return ("entry @k(%arg0: tile<i32>) {\n"
            "  %c0 = constant <i32: 0> : tile<i32>\n"
            f"  %hi = constant <i32: {upper}> : tile<i32>\n"
            f"  %st = constant <i32: {step}> : tile<i32>\n"
            "  %tile = constant <i32: 1024> : tile<i32>\n"
            "  %lanes = iota : tile<1024xi32>\n"
            "  %z = constant <f32: 0.000000e+00> : tile<1024xf32>\n"
            "  %l = for %j in (%c0 to %hi, step %st) : tile<i32> iter_values(%acc = %z) "
            "-> (tile<1024xf32>) {\n"
            "    %m = muli %j, %tile : tile<i32>\n"
            "    %r = reshape %m : tile<i32> -> tile<1xi32>\n"
            "    %b = broadcast %r : tile<1xi32> -> tile<1024xi32>\n"
            "    %o = addi %lanes, %b : tile<1024xi32>\n"
            "    %f = itof %o signed : tile<1024xi32> -> tile<1024xf32>\n"
            "    %a = addf %acc, %f : tile<1024xf32>\n"
            "    continue %a : tile<1024xf32>\n"
            "  }\n"
            "  print_tko %l\n  return\n}\n")


def _ops(text: str) -> list[str]:
    lines = print_module(normalize(parse(text))).splitlines()
    return [line.split("= ", 1)[-1].strip() for line in lines]


def test_one_trip_index_times_tile_is_the_constant_it_computes():
    ops = _ops(_loop("1"))
    assert not any(op.startswith("muli") for op in ops), ops
    assert "constant <i32: 0> : tile<1024xi32>" in ops       # then a splat, as cutile writes


def test_a_one_trip_loop_that_starts_later_folds_to_its_start():
    text = _loop("3", step="4").replace("constant <i32: 0> : tile<i32>",
                                        "constant <i32: 2> : tile<i32>")
    assert "constant <i32: 2048> : tile<1024xi32>" in _ops(text)


def test_an_assumed_index_folds_the_same():
    """cutile may state the index's range first (`assume bounded<0, 0>`): the same fold."""
    text = _loop("1").replace("    %m = muli %j, %tile : tile<i32>\n",
                              "    %jb = assume bounded<0, 0>, %j : tile<i32>\n"
                              "    %m = muli %jb, %tile : tile<i32>\n")
    assert "assume bounded<0, 0>" in text
    assert not any(op.startswith("muli") for op in _ops(text))


def test_the_rule_can_be_switched_off():
    ops = [line.split("= ", 1)[-1].strip() for line in print_module(
        normalize(parse(_loop("1")), disabled=["single_trip_index"])).splitlines()]
    assert any(op.startswith("muli") for op in ops)


def test_loops_of_more_trips_or_unknown_bounds_keep_their_arithmetic():
    assert any(op.startswith("muli") for op in _ops(_loop("2")))
    unknown = _loop("1").replace("%hi = constant <i32: 1> : tile<i32>",
                                 "%hi = addi %arg0, %arg0 : tile<i32>")
    assert any(op.startswith("muli") for op in _ops(unknown))
