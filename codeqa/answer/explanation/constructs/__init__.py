"""The framework's constructs in the code (``mechanism``) and what they make of a candidate source (``candidate``):
the hooks every request passes through (``apphook``, ``basehook``, ``listedlog``, ``mounted``, ``goapplied``), the
classes that skip one (``skipped``), one app among several (``apppart``), code that runs in the browser
(``clientside``).
"""
