"""Streamlit-side helpers for codeqa's pages: cached factories, per-session state and shared widgets.

Kept apart from ``codeqa/`` so the library never imports Streamlit; pages stay a few dozen lines each.
"""
