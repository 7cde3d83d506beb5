"""The license: MIT, in LICENSE and in the installed package's metadata (PEP 639)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

LICENSE = Path(__file__).resolve().parent.parent / "LICENSE"


def test_installed_metadata_says_mit() -> None:
    meta = importlib.metadata.metadata("pokerdraw32")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in meta.get_all("License-File", [])
    assert not [c for c in meta.get_all("Classifier", []) if c.startswith("License ::")]   # no conflicting classifier
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL", []))
    assert urls["Source"] == "https://github.com/pokerdraw32/pokerdraw32"
    assert {"Homepage", "Issues", "Changelog"} <= set(urls)


@pytest.mark.skipif(not LICENSE.exists(), reason="needs the repository's LICENSE beside tests/")
def test_license_file_is_mit() -> None:
    text = LICENSE.read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the pokerdraw32 authors" in text
