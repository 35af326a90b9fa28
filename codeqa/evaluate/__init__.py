"""Measuring retrieval: datasets, the runner (real pipeline), metrics, and ranker training with cross-validation."""

from codeqa.evaluate.data import Instance, is_test, load_dataset
from codeqa.evaluate.metrics import DEFAULT_KS, InstanceResult, score, summarize, write_json
from codeqa.evaluate.runner import run_eval

__all__ = [
    "DEFAULT_KS",
    "Instance",
    "InstanceResult",
    "is_test",
    "load_dataset",
    "run_eval",
    "score",
    "summarize",
    "write_json",
]
