from pulyacalc.cli.app import script

script()
