"""What codeqa knows about web frameworks, shared by retrieval and answers: the topics a newcomer asks about
(``intent``), each framework's constructs for them as data (``conventions``, one TOML file per framework) and how
to tell which frameworks an index uses (``detection``)."""
