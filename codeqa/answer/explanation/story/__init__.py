"""The flow told as steps: the walk from an entry along checked calls to the outcome (``walk``, ``walktext``), where
a definition ends (``endings``, ``exits``), and the callee a source's flow goes on in (``continued``).
"""
