"""``python -m api analyze TILES`` / ``python -m api score FILE``: the hand calculators
without the server (:mod:`api.hand_commands`)."""
from api.hand_commands import main

main(prog_name="python -m api")
