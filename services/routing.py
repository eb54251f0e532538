"""URL rules whose builders are compiled when first used.

werkzeug compiles two URL builders for every route as the route is added (Python source
built and compiled per rule: about 1.5 ms a rule, 130 rules), though a server process builds
URLs for a few endpoints only and a CLI command or a test usually none. :class:`LazyRule`
compiles each builder on its first call instead; matching a URL is untouched. ``url_for``
gives the same URLs either way (the pages' tests, and ``tests/test_app.py``, hold it to that).
"""
from __future__ import annotations

from werkzeug.routing import Rule


class LazyRule(Rule):
    """werkzeug's :class:`~werkzeug.routing.Rule`, its URL builders compiled on first use."""

    def _compile_builder(self, append_unknown: bool = True):
        name = "_build_unknown" if append_unknown else "_build"
        compile_now = super()._compile_builder

        def build_first(rule: Rule, **values):
            built = compile_now(append_unknown).__get__(rule, None)
            setattr(rule, name, built)  # the next call goes straight to it
            return built(**values)

        return build_first
