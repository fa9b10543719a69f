"""Who owns a failure, and the evidence that says so: both sides of a case as Tile IR or
bytecode (pairs.py), what the machine code shows about a finding and the promises a port
makes (evidence.py), and the owner of a failed build, IR diff or GPU check (owner.py), one
decision used by the GPU check, the drafting pipeline and the corpus."""
