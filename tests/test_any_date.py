"""No test depends on today's date (issue #12 item 1): the clock tests run again with the
system's date a year ahead (libfaketime, Debian's ``faketime``; ``make test`` installs it).

The clocks' tests set their own clocks (``CLOCK``, tournament.clocksource); this runs them in a
child pytest whose every process — the test's, its server processes' — reads a shifted date.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

CLOCK_TESTS = ["tests/test_clocksource.py", "tests/test_clocks_service.py", "tests/test_clocks_e2e.py",
               "tests/test_clock.py", "tests/test_pages.py"]
#: of those, the clocks' (every test of the clock modules, whose names say ``clock``, and the
#: pages' clock panel and hall): the pages' other tests show no time
CLOCK_SELECTION = "clock or hall"


@pytest.mark.parametrize("shift", ["+365d"])
def test_the_clock_tests_pass_on_another_date(shift, tmp_path):
    faketime = shutil.which("faketime")
    assert faketime, "faketime is missing: make test installs Debian's faketime"
    # libfaketime 0.9.10 hangs timed waits when it fakes the monotonic clock too: fake the date only
    env = {**os.environ, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}
    shifted = subprocess.run([faketime, "-f", shift, "date", "+%Y"], capture_output=True, text=True, env=env)
    assert int(shifted.stdout) > int(subprocess.run(["date", "+%Y"], capture_output=True, text=True).stdout)
    run = subprocess.run([faketime, "-f", shift, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "--basetemp", str(tmp_path / "t"),
                          # the scheduler's PostgreSQL leader runs the same clock code as its file lock
                          # (tests/test_clocks_service.py): not a second cluster under faketime
                          "-m", "not postgresql", "-k", CLOCK_SELECTION, *CLOCK_TESTS],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " failed" not in run.stdout
