"""codeqa: a private, local map of any codebase — index, search, ask, explore."""

__version__ = "0.1.0"
