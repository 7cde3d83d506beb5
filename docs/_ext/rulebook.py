"""Rule ids as links: every rule of RULES.md gets a target, and every rule id in the prose links to it.

The rule book page (``rulebook_docname``) includes RULES.md as it is. On that page each section
``## R3 ...`` and each rule ``* R3.4 ...`` gets a target (HTML id ``rule-r3-4``, label ``rule-r3.4``,
so ``{ref}`rule-r3.4``` works in MyST and ``:ref:`rule-r3.4``` in reST). On every page, the
docstrings of the API reference included, a rule id in running text (``R3.4``, ``[R3.4]``,
``R1-R11``) becomes a link to its rule; ids in code (inline literals, code blocks) stay as they are.
A rule id that RULES.md does not have is left unlinked and reported as a warning (which ``-W`` turns
into a failed build), so the docs cannot cite a rule that is not in the book.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

RULE_AT_START = re.compile(r"^(R\d+(?:\.\d+)?)\s")
RULE_ID = re.compile(r"(?<![\w.-])(R\d+(?:\.\d+)?)(?![\w])")
SKIP = (nodes.literal, nodes.literal_block, nodes.FixedTextElement, nodes.reference, nodes.raw, nodes.comment,
        nodes.target, nodes.title, addnodes.pending_xref, addnodes.desc_signature, nodes.option_string)


def label_of(rule: str) -> str:
    """The label of a rule id: ``R3.4`` -> ``rule-r3.4``."""
    return "rule-" + rule.lower()


def _rule_ids(app: Sphinx) -> set[str]:
    from pokerdraw32.rulebook import rule_ids

    return set(rule_ids())


def _mark_rules(app: Sphinx, doctree: nodes.document) -> None:
    """On the rule book's page: a target for each rule section and each rule."""
    docname = app.env.docname
    if docname != app.config.rulebook_docname:
        return
    std = app.env.domains.standard_domain
    found = set()

    def register(node: nodes.Element, rule: str, title: str) -> None:
        anchor = "rule-" + rule.lower().replace(".", "-")
        node["ids"].insert(0, anchor)
        doctree.ids[anchor] = node
        std.anonlabels[label_of(rule)] = (docname, anchor)
        std.labels[label_of(rule)] = (docname, anchor, title)
        found.add(rule)

    for section in doctree.findall(nodes.section):
        match = RULE_AT_START.match(section[0].astext() + " ")
        if match:
            register(section, match.group(1), section[0].astext())
    for item in doctree.findall(nodes.list_item):
        if item.children and isinstance(item[0], nodes.paragraph):
            match = RULE_AT_START.match(item[0].astext())
            if match and "." in match.group(1):
                register(item, match.group(1), match.group(1))
    missing = _rule_ids(app) - found
    if missing:
        logger.warning("rule book: no target for %s", ", ".join(sorted(missing)), location=docname)


def _link_rules(app: Sphinx, doctree: nodes.document) -> None:
    """On every page: rule ids in running text become references to their rule."""
    known = _rule_ids(app)
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, SKIP) for a in _ancestors(parent)):
            continue
        source = str(text)
        if not RULE_ID.search(source):
            continue
        pieces: list[nodes.Node] = []
        last = 0
        for match in RULE_ID.finditer(source):
            rule = match.group(1)
            if rule not in known:
                logger.warning("rule id %s is not in RULES.md", rule, location=parent)
                continue
            if match.start() > last:
                pieces.append(nodes.Text(source[last:match.start()]))
            ref = addnodes.pending_xref("", refdomain="std", reftype="ref", reftarget=label_of(rule),
                                        refexplicit=True, refwarn=True)
            ref += nodes.inline(rule, rule, classes=["rule-id"])
            pieces.append(ref)
            last = match.end()
        if not pieces:
            continue
        if last < len(source):
            pieces.append(nodes.Text(source[last:]))
        index = parent.index(text)
        parent.remove(text)
        for offset, piece in enumerate(pieces):
            parent.insert(index + offset, piece)


def _ancestors(node: nodes.Node) -> Any:
    while node is not None:
        yield node
        node = node.parent


def _doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    _mark_rules(app, doctree)
    _link_rules(app, doctree)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("rulebook_docname", "game/rulebook", "env")
    app.connect("doctree-read", _doctree_read)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
