"""Reading code for an answer: what a line does (``lineroles``), which lines carry the question (``keylines``),
what a chunk says about itself (``outline``), which definition holds a line (``linenames``), the test a line runs
under (``condition``, ``branches``). It knows nothing of sources, calls or sentences.
"""
