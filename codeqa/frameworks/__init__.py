"""What codeqa knows about web frameworks, shared by retrieval and answers: the topics a newcomer asks about
(``intent``), each framework's constructs for them as data (``conventions``, one TOML file per framework), which
constructs to look for in an index (``detection``: marker paths and identifiers) and which frameworks an app is
built on, part by part (``evidence``: the dependencies its ``manifests`` declare and its import statements)."""
