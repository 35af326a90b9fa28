"""codeqa's web app — Home: index a repository (GitHub URL or local path), watch the stages, manage the indexes.

``streamlit run app.py`` runs it from a checkout; ``codeqa serve`` runs its shipped twin, ``codeqa_ui/served/``
(the same scripts: tests/test_packaging.py keeps them equal). The other pages live in ``pages/``.
"""

from codeqa_ui import home

home.render()
