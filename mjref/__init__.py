"""The ``mjref`` command and the server launcher: the top of the house (issue #19 items 1, 5).

- :mod:`mjref.cli`: ``mjref analyze|score|serve|replay|rule|tokens|tables …`` (``pyproject.toml``
  installs it as the ``mjref`` console script; ``python -m mjref`` is the same);
- :mod:`mjref.serve`: nginx in front of uWSGI workers (``make run``).

Nothing below imports this package.
"""
