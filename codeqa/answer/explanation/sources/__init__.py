"""Which code an answer shows (``choose``) and how much of it (``budget``, ``fold``): pieces of one definition
(``pieces``, ``fileparts``), the code a source's checked calls lead to (``follow``), the entry of sign-in (``entry``),
and what was searched for and not found (``absence``, ``missing``).
"""
