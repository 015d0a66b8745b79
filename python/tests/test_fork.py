"""The package keeps working in a process forked after it ran (multiprocessing's
fork start method, Spark's and Gunicorn's workers): a child must not wait on
threads of its parent's that it does not have."""

from __future__ import annotations

import multiprocessing
import os
import warnings

import pytest

import partkit

LINE = '{"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "Hi"}]}'


def _convert_in_child() -> tuple[int, int, int]:
    warnings.simplefilter("ignore")
    converted = partkit.convert_lines([LINE] * 64, "anthropic")
    one = partkit.convert_lines([LINE] * 8, "anthropic", threads=1)
    findings = partkit.validate(LINE, target="anthropic")
    return len([c for c in converted if c is not None]), len(one), len(findings)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_child_forked_after_a_parallel_run_converts() -> None:
    warnings.simplefilter("ignore")
    # The parent's pools exist (all threads, and one thread) before the fork.
    assert len(partkit.convert_lines([LINE] * 64, "anthropic")) == 64
    assert len(partkit.convert_lines([LINE] * 8, "anthropic", threads=1)) == 8
    partkit.validate(LINE)
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        # Before the per-process pools, this waited forever.
        result = pool.apply_async(_convert_in_child).get(timeout=60)
    assert result == (64, 8, 0)
    # And the parent's pools still work after the fork.
    assert len(partkit.convert_lines([LINE] * 64, "anthropic")) == 64
