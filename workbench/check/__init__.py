"""On-GPU correctness and performance checks, run in a worker process."""
