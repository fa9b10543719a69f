"""How tilegym.ops.cutile.dropout launches _dropout_kernel (_DropoutCuTileFunction.forward):
x flattened, TILE_SIZE 1024, one block per tile, P the drop probability, SEED the user's
seed mixed into a signed int32 (_mix_seed: seed * 2654435761 mod 2^32). The launcher only
launches when training (eval returns x), so TRAINING is always True."""
from workbench.launchrules import Launch, cdiv

TILE_SIZE = 1024


def mix_seed(seed: int) -> int:
    """_mix_seed: Knuth's multiplicative spread of the seed, as a signed int32."""
    mixed = (int(seed) * 2654435761) & 0xFFFFFFFF
    return mixed - (1 << 32) if mixed >= 1 << 31 else mixed


def outputs(p):
    return {"output": p["x"].spec}


def launch(kernel, r, p, num_sm):
    if kernel != "_dropout_kernel":
        return None
    n = p["x"].numel()
    consts = {"P": float(p.option("p", 0.5)), "SEED": mix_seed(p.option("seed", 0)),
              "TILE_SIZE": TILE_SIZE, "TRAINING": True}
    return Launch([r.view("x", (n,)), r.view("output", (n,))], consts, (cdiv(n, TILE_SIZE), 1, 1))
