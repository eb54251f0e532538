"""Test support, not product: scripted hands and the sample streams' writers (issue #19 item 2).

- :mod:`testkit.scenario`: a hand written as a short script (``摸``, ``打``, ``碰`` …);
- :mod:`testkit.referee_samples`: the referee's samples, ``python -m testkit.referee_samples``
  writes ``data/samples/{win,draw,deal,play,ready,prio}_*.jsonl``;
- :mod:`testkit.script`, :mod:`testkit.penalty_samples`: the penalties' samples,
  ``python -m testkit.penalty_samples`` writes ``data/samples/pen_*.jsonl``;
- :mod:`testkit.irregular`: generated hands with irregularities injected (property tests,
  ``bench/bench_live_batch.py``).

The product packages (``referee``, ``penalties``, ``tournament``, ``store``, ``api``, ``web``,
``clocks``) never import this package; ``tests/test_layers.py`` holds them to it.
"""
