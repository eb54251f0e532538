"""``python -m bench.create_app_loop N``: make one app, then N apps, each on a copy of the first
one's migrated SQLite file (as the tests' ``database`` fixture does), each closed again.

Under callgrind, the difference between two N divided by their difference is what one
``create_app`` costs (docs/performance.md, "測試時間").
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

from app import create_app
from store import close_app


def main(n: int) -> None:
    folder = tempfile.mkdtemp(prefix="mjref-create-app-")
    first = os.path.join(folder, "first.sqlite3")
    close_app(create_app({"TESTING": True, "DATABASE": first}))
    for i in range(n):
        path = os.path.join(folder, f"{i}.sqlite3")
        shutil.copyfile(first, path)
        close_app(create_app({"TESTING": True, "DATABASE": path}))
    shutil.rmtree(folder)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
