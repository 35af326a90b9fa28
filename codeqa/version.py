"""The codeqa version, in a module of its own so nothing inside the library imports the package face for it."""

__version__ = "0.1.0"
