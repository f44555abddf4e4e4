"""The ``quads`` command line: one module per command, wired up in :mod:`quads.cli.main`."""
