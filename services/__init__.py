"""What the service's front ends share: ``api/`` (JSON), ``web/`` (pages) and ``clocks/``
(the round clocks' scheduler) all import this layer, and it imports none of them (issue #19
item 1; ``tests/test_layers.py``):

    domain (referee, penalties, tournament) ← store ← services ← api / web / clocks ← app ← mjref

- :mod:`services.problems`: the problem type every refusal becomes (problem+json);
- :mod:`services.tournament_log`: a tournament's log loaded and replayed, cached by its last seq;
- :mod:`services.tournament_results`: referee tables' hands synced into a tournament's log.

It may use Flask's application context (``current_app``), never a blueprint or a request's
body schema.
"""
