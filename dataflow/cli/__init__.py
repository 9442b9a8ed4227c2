"""The `a2a` command line, kept thin: argument parsing and printing; the work is in the packages it calls.

`main` is the console entry point (`a2a = "dataflow.cli:main"`); `python -m dataflow.cli` runs it too.
"""

from dataflow.cli.main import main

__all__ = ["main"]
