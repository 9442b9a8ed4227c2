"""`python -m dataflow.cli`: the `a2a` command."""

from dataflow.cli.main import main

main()
