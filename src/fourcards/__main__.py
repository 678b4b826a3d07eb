from fourcards.launch import main

main()
