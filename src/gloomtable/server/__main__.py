from gloomtable.server.run import main

main()
