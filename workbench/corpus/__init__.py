"""The TileGym corpus: every `@ct.kernel` entry of an installed TileGym, with cases in the
shapes its launchers use (kernels_src/corpus/tilegym.toml), run through the offline drafter.

    manifest.py   the manifest: entries, cases, launch rules (low: sources/ reads it)
    expr.py       the small expression language of the launch rules
    run.py        one entry through the drafting pipeline -> EntryResult (never raises)
    cluster.py    --jobs N: the entries on a dask.distributed LocalCluster
    report.py     the table and the summary
"""
