from fourcards.cli import main

main()
