"""Sphinx configuration of the pokerdraw32 documentation site.

Build it (``pip install ".[docs]"`` first) with::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The pages are MyST Markdown (``myst_parser``); RULES.md, PROTOCOL.md and CHANGELOG.md are included
from the repository's root as they are. The API reference is autodoc of the installed package.

Intersphinx (links to Python, NumPy and Gymnasium) needs the network at build time. Each mapping
names the project's published inventory first and, second, an empty inventory that this file
writes under ``docs/_build``: with the network (Read the Docs, a developer's machine) the first one
loads and the references link; without it (this project's CI reaches PyPI only) Sphinx falls back to
the empty one, which is an info message and not a warning, so ``-W`` still passes and the same
references are left as plain text.
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

import pokerdraw32

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "pokerdraw32"
author = "the pokerdraw32 authors"
copyright = "2026, the pokerdraw32 authors"
release = pokerdraw32.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
    "sphinxarg.ext",
    "rulebook",          # docs/_ext/rulebook.py: a target per rule id, and R3.4 in the prose links to it
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
templates_path: list[str] = []
# PROTOCOL.md shows messages with "..." for the parts left out: JSON that Pygments cannot lex strictly,
# so it retries leniently (the block is still highlighted); that retry is not a problem of the page.
suppress_warnings = ["misc.highlighting_failure"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4          # [text](#a-heading) links within and between pages, as GitHub does

# -- autodoc: the docstrings are reST field lists (:param:, :raises:) read as they are -------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"           # the annotations' types beside each parameter's text
autodoc_typehints_format = "short"
autodoc_class_signature = "separated"
autodoc_default_options = {"show-inheritance": True}
# The optional libraries whose modules are documented without installing them for the build: the
# OpenSpiel game subclasses pyspiel's classes, the Stable-Baselines3 VecEnv SB3's, and torch comes
# with SB3 (4 GB with its CUDA build). The [rl] and [server] extras are installed by [docs].
autodoc_mock_imports = ["pyspiel", "open_spiel", "stable_baselines3", "sb3_contrib", "torch"]

# -- intersphinx: published inventories first, an empty local one when offline (see above) ---------
_OFFLINE = DOCS / "_build" / "offline-objects.inv"
_OFFLINE.parent.mkdir(parents=True, exist_ok=True)
_OFFLINE.write_bytes(b"# Sphinx inventory version 2\n# Project: none\n# Version: 0\n"
                     b"# The remainder of this file is compressed using zlib.\n" + zlib.compress(b""))
_offline = str(_OFFLINE)
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (None, _offline)),
    "numpy": ("https://numpy.org/doc/stable", (None, _offline)),
    "gymnasium": ("https://gymnasium.farama.org", (None, _offline)),
}
intersphinx_timeout = float(os.environ.get("POKERDRAW32_DOCS_INTERSPHINX_TIMEOUT", "10"))

# -- HTML ---------------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"pokerdraw32 {release}"
html_static_path: list[str] = []
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = False
