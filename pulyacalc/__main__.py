from pulyacalc.cli.app import main

main()
