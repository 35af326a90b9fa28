"""Who calls whom, checked in the code: the call flow between chunks (``flow``), the claim checker for "A calls B"
(``claims``), what a name alone settles in each language (``byname``, ``declared``, ``implements``, ``gopackages``,
``rubybody``, ``elixiralias``), which definition a relation is said of (``callplace``), and graph questions
(``graphqa``).
"""
