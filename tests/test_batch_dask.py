"""``flask replay/rule --scheduler ADDRESS`` (issue #17 item 3): the same per-hand job on a
``dask.distributed`` cluster gives exactly the local answers, in input order.

The cluster is a real :class:`distributed.LocalCluster` with one worker process of one
thread (the worker imports mjref and unpickles the chunks, as a remote one would), kept
small for a shared machine.
"""
from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from referee.events import to_jsonl
from referee.generator import generate_hands
from testkit.irregular import irregular_hand
from tests.servicekit import app_storing_nothing  # noqa: F401  (the app here: these tests store nothing)

distributed = pytest.importorskip("distributed")

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def scheduler(cluster):
    return cluster.scheduler_address


def chunks_done(cluster) -> int:
    """Chunks the cluster's worker has judged so far (the scheduler's count)."""
    prefix = cluster.scheduler.task_prefixes.get("dask_chunk")  # api.batch._dask_chunk's tasks
    return 0 if prefix is None else prefix.state_counts["memory"]


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    """Every sample stream, generated legal hands, generated hands with irregularities (a
    physical table's), and a broken line: more than a few chunks, and every kind of answer."""
    parts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.jsonl"))]
    parts += [to_jsonl(events) for events in generate_hands(60, seed=77)]
    parts += ["".join(json.dumps(e, ensure_ascii=False) + "\n" for e in irregular_hand(seed, seed, 4))
              for seed in range(1, 41)]
    broken = parts[-1].splitlines(keepends=True)
    broken[6] = '{"type": "draw", "seq": \n'
    parts[-1] = "".join(broken)
    path = tmp_path_factory.mktemp("dask") / "log.jsonl"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def broken_line(log: Path) -> int:
    return 1 + log.read_text(encoding="utf-8").splitlines().index('{"type": "draw", "seq": ')


def invoke(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


@pytest.mark.parametrize("command", [["replay"], ["rule"], ["rule", "--set", "tai.concealed_hand=5"]])
def test_the_dask_path_answers_as_the_local_one(app, cluster, scheduler, log, command):
    local = invoke(app, *command, str(log), "--jobs", "1")
    before = chunks_done(cluster)
    remote = invoke(app, *command, str(log), "--scheduler", scheduler)
    assert chunks_done(cluster) - before == -(-len(local.stdout.splitlines()) // 32)  # every chunk on the cluster
    assert local.exit_code == remote.exit_code == 2  # the broken line: one unreadable hand
    answers = local.stdout.splitlines()
    assert len(answers) > 4 * 32  # several chunks in flight
    assert remote.stdout == local.stdout
    problems = [json.loads(line) for line in answers if line.startswith('{"source"')]
    assert f"line {broken_line(log)}" in [p["problem"]["field"] for p in problems]
    assert remote.stderr.splitlines()[1:] == local.stderr.splitlines()[1:]  # the summary, but for its speed


def test_a_ruleset_override_reaches_the_workers(app, scheduler, log):
    plain = invoke(app, "rule", str(log), "--scheduler", scheduler, "--quiet")
    more = invoke(app, "rule", str(log), "--scheduler", scheduler, "--quiet", "--set", "tai.concealed_hand=5")
    assert plain.stdout != more.stdout  # the override changed the money, on the workers too


def test_one_hand_is_one_document_on_the_cluster_too(app, scheduler):
    sample = SAMPLES / "pen_false_win.jsonl"
    local = invoke(app, "rule", str(sample))
    remote = invoke(app, "rule", str(sample), "--scheduler", scheduler)
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout and json.loads(remote.stdout)["hands"]


def test_an_unreachable_scheduler_is_an_error_naming_the_option(app):
    import dask

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = invoke(app, "replay", str(SAMPLES / "draw_exhausted.jsonl"), "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.exit_code == 2
    assert "'--scheduler'" in result.output and "Dask" in result.output


def test_the_cluster_is_sent_only_a_bounded_number_of_hands(cluster):
    """Memory bounded by the chunks in flight (3 per worker thread): an endless log still
    yields answers, in order, from the cluster."""
    import io
    import itertools

    from api import batch

    text = to_jsonl(next(iter(generate_hands(1, seed=5)))).encode("utf-8")
    hand = next(batch._source_hands("-", io.BytesIO(text), io.BytesIO(), None))
    pulled = 0

    def endless():
        nonlocal pulled
        while True:
            pulled += 1
            yield hand

    got = list(itertools.islice(batch.dask_answers(endless(), batch.Settings("rule"), cluster.scheduler_address), 100))
    assert len(got) == 100 and all(a.problem is None for a in got) and len({a.text for a in got}) == 1
    assert pulled <= 100 + batch.CHUNK * (batch.IN_FLIGHT * 1 + 1)
