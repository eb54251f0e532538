"""What the service's front ends share: ``api/`` (JSON), ``web/`` (pages) and ``clocks/``
(the round clocks' scheduler) all import this layer, and it imports none of them (issue #19
item 1; ``tests/test_layers.py``):

    domain (referee, penalties, tournament) ← store ← services ← api / web / clocks ← app ← mjref

- :mod:`services.problems`: the problem type every refusal becomes (problem+json);
- :mod:`services.caller`: who is calling — tokens, roles, read areas;
- :mod:`services.live`: live ingest, each hand through the one hand adjudicator, and its projections;
- :mod:`services.overrides`, :mod:`services.analysis`, :mod:`services.score_body`,
  :mod:`services.schemas`, :mod:`services.validation`: what a body or a form may ask, checked
  one way for the API and the pages alike;
- :mod:`services.pins`: table scorers' PINs;
- :mod:`services.tournament_log`: a tournament's log loaded and replayed, cached by its last seq;
- :mod:`services.tournament_results`: referee tables' hands synced into a tournament's log;
- :mod:`services.clock_log`, :mod:`services.clock_service`: the clocks' writes, and this
  process's scheduler as the API finds it.

It may use Flask's application context (``current_app``) and marshmallow, never a blueprint,
a route or a command.
"""
