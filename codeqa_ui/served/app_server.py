"""The web app as ``codeqa serve`` serves it: ``app.py`` (and ``pages/``) beside this file, behind the Host and
Origin check.

This folder ships in the wheel (package data), so an installed codeqa serves the same app as a checkout; its
``.streamlit/config.toml`` is the app's configuration (Streamlit reads the one beside the script it runs).
Streamlit itself accepts any ``Host`` header, so a page on another site that points its own name at 127.0.0.1 (DNS
rebinding) could drive the app. ``st.App`` runs ``app.py`` exactly as ``streamlit run app.py`` does, with
``codeqa.service.hosts``' middleware in front of every request and WebSocket: only loopback names, the address the
server is bound to and ``CODEQA_ALLOWED_HOSTS`` get through. The uvicorn server importing this module is given a
cap on request headers and a deadline for sending them (``codeqa.service.serving``). ``codeqa_ui.pagebase`` tells
each page where the server is (no 404s when a page is opened directly).
"""

import streamlit as st
from starlette.middleware import Middleware
from streamlit import config

from codeqa.config import get_settings
from codeqa.service.hosts import guard_middleware, served_hosts
from codeqa.service.serving import limit_loading_server
from codeqa_ui.pagebase import PageBase

limit_loading_server()

hosts = served_hosts(str(config.get_option("server.address") or "127.0.0.1"), get_settings().allowed_hosts)
base_path = str(config.get_option("server.baseUrlPath") or "")
middleware = [*guard_middleware(hosts), Middleware(PageBase, base_path=base_path)]  # PageBase: no 404s on /Map
app = st.App("app.py", middleware=middleware)  # relative to this file when run by `streamlit run`
