# mjref: make run / make test. The venv is (re)installed only when requirements.txt changes.
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST  := 127.0.0.1
PORT  := 8000

.PHONY: run test

run: $(STAMP)
	@echo "mjref 服務啟動 / serving on http://$(HOST):$(PORT)/  (health: http://$(HOST):$(PORT)/health)"
	$(VENV)/bin/waitress-serve --host $(HOST) --port $(PORT) --call app:create_app

test: $(STAMP)
	$(PY) -m pytest -q -n 2

$(PY):
	python3 -m venv $(VENV)

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	touch $(STAMP)
