"""What an answer says, from ``explain``'s data: the opening (``lead``, ``quoted_line``, ``outcomes``, ``told``), what
a cited callee does and where a caller calls (``callees``, ``callsites``), the closing and the conclusion by intent
(``closing``, ``closing_place``, ``conclusion``), the roles said of a chunk (``roles_said``), phrasing, and the
rendered extractive map (``extractive``).
"""
