"""``python -m mjref …``: the ``mjref`` command (:mod:`mjref.cli`)."""
from mjref.cli import main

main(prog_name="mjref")
