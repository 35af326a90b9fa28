from codeqa.cli import main

main()
