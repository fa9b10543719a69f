import difflib
import random

from workbench.diff.myers import opcodes


def apply(codes, a, b):
    out = []
    for tag, a0, a1, b0, b1 in codes:
        out += a[a0:a1] if tag == "equal" else b[b0:b1]
    return out


def test_opcodes_rebuild_the_right_side_and_find_a_minimal_script():
    rng = random.Random(7)
    for _ in range(300):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        b = list(a)
        for _ in range(rng.randint(0, 5)):
            op = rng.choice(["ins", "del", "sub"])
            i = rng.randint(0, len(b))
            if op == "ins":
                b.insert(i, rng.choice("abcde"))
            elif b and i < len(b):
                if op == "del":
                    del b[i]
                else:
                    b[i] = "z"
        codes = opcodes(a, b)
        assert apply(codes, a, b) == b
        equal = sum(a1 - a0 for t, a0, a1, _, _ in codes if t == "equal")
        lcs = sum(block.size for block in
                  difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
        assert equal >= lcs          # Myers finds a longest common subsequence


def test_too_many_edits_fall_back_to_one_replace():
    assert opcodes(list("aaaa"), list("bbbb"), max_edits=2) == [("replace", 0, 4, 0, 4)]
    assert opcodes([], []) == []
