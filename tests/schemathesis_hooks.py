"""Schemathesis hooks for the API contract test (loaded through ``SCHEMATHESIS_HOOKS``).

A schema-valid ``POST /jobs`` names any string as its source; the server would try to index it (a folder of this
machine, a GitHub URL). So a positive case indexes the small repository the test made instead
(``CODEQA_CONTRACT_SOURCE``). Negative cases are sent as generated: the server must refuse them before any job starts.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis

SAFE_SOURCE = os.environ["CODEQA_CONTRACT_SOURCE"]


@schemathesis.hook
def before_call(context: schemathesis.HookContext, case: schemathesis.Case, kwargs: dict[str, Any]) -> None:
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    job = case.method == "POST" and case.path == "/jobs" and isinstance(case.body, dict)
    if positive and job and isinstance(case.body.get("source"), str):
        case.body["source"] = SAFE_SOURCE
