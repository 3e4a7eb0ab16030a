"""One module per command; each registers itself on :data:`pulyacalc.cli.app`."""
