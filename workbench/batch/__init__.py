"""`workbench batch`: the drafting pipeline, SASS, GPU checks and benches over the catalog,
the corpus or a list of targets, as tasks on dask.distributed (engine.py is its one owner)."""
