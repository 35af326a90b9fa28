"""codeqa's web app — Home: index a repository (GitHub URL or local path), watch the stages, manage the indexes.

Run it with ``scripts/run`` (or ``streamlit run app.py``); the other pages live in ``pages/``.
"""

from codeqa_ui import home

home.render()
