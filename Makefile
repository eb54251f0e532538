# mjref: make run / make test. The venv is (re)installed only when requirements*.txt or pyproject.toml change.
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
HOST  := 127.0.0.1
PORT  := 8000
# uWSGI worker processes and threads per process (python -m mjref.serve): one process runs Python on
# one core at a time, live ingest needs both cores (docs/performance.md, bench/bench_ingest.py); a
# thread runs one request at a time (nginx in front holds the clients' connections)
PROCESSES := 2
THREADS := 128
# started as root, the service runs as this user (created when missing; docs/api.md); empty: stay root
RUN_USER := mjref
# the server holds the clients' connections in Debian's nginx, in front of uWSGI (mjref/serve.py)
NGINX := /usr/sbin/nginx

.PHONY: run test test-pg postgresql icu debs bytecode

run: $(STAMP) $(NGINX) icu bytecode
	@echo "mjref 服務啟動 / serving on http://$(HOST):$(PORT)/  (API docs: http://$(HOST):$(PORT)/docs, health: /health)"
	@echo "資料庫 database: $${MJREF_DATABASE:-instance/mjref.sqlite3} (首次啟動時建立 created on first start)"
	@echo "第一個權杖 first token: $(VENV)/bin/mjref tokens create --role admin --label 管理員"
	$(PY) -m mjref.serve --host $(HOST) --port $(PORT) --threads $(THREADS) --processes $(PROCESSES) --user "$(RUN_USER)"

# the files that show Debian's packages are installed (debs, below, says what each is for)
CHROMIUM  := /usr/bin/chromium
FAKETIME  := /usr/bin/faketime
PDFTOTEXT := /usr/bin/pdftotext
NOTO_CJK  := /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT       := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

# the whole suite on SQLite, then again on PostgreSQL (issue #16): the tests that store something,
# each on a database of a throwaway cluster the tests start themselves, reset to the migrated
# template after each test (tests/pgcluster.py)
test: $(TEST_STAMP) debs bytecode
	$(VENV)/bin/ruff check .  # pyproject.toml [tool.ruff]
	$(PY) -m pytest -q -n 2
	MJREF_TEST_DATABASE=postgresql $(PY) -m pytest -q -n 2

test-pg: $(TEST_STAMP) $(NGINX) postgresql bytecode
	MJREF_TEST_DATABASE=postgresql $(PY) -m pytest -q -n 2

# Debian's packages, each installed when the file that shows it is missing, all of them in one
# apt-get call (two: with and without their recommended packages), so one index read and one run
# of dpkg's triggers where a fresh CI machine lacks them all:
#   chromium       the browser tests (tests/test_pages_browser.py) drive Debian's Chromium
#   faketime       tests/test_any_date.py runs the clock tests with the system date shifted
#   fonts-noto-cjk the pages' screenshots and the tile pictures' characters (web/tiles_svg.py)
#   nginx          the server's front (mjref/serve.py)
#   poppler-utils  the printouts' PDFs read back page by page (tests/test_event_browser.py)
#   postgresql     the server binaries (initdb, pg_ctl, postgres) of the tests' own cluster (tests/pgcluster.py)
#   libicu-dev     names listed by strokes (筆畫) with the system's ICU (web/name_order.py, R-tour-33)
# The first three come with their recommended packages, as they always have; the rest without.
WITH_RECOMMENDS := chromium=$(CHROMIUM) faketime=$(FAKETIME) fonts-noto-cjk=$(NOTO_CJK)
WITHOUT_RECOMMENDS := nginx=$(NGINX) poppler-utils=$(PDFTOTEXT)
# postgresql: initdb on PATH or in /usr/lib/postgresql/<n>/bin; ICU: the library ldconfig knows
HAVE_POSTGRESQL = command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
HAVE_ICU = /sbin/ldconfig -p | grep -q 'libicui18n\.so\.'

# missing NAME=FILE ...: the names whose file is missing
missing = $(foreach pair,$(1),$(if $(wildcard $(lastword $(subst =, ,$(pair)))),,$(firstword $(subst =, ,$(pair)))))

# apt-get install, after apt-get update when the first try fails (no package index yet)
define apt_install
  echo "安裝 Debian 套件（測試與服務用）/ installing Debian packages: $(strip $(2))"; \
  $(APT) install -y $(1) $(2) || { $(APT) update && $(APT) install -y $(1) $(2); }
endef

debs:
	@with="$(strip $(call missing,$(WITH_RECOMMENDS)))"; \
	without="$(strip $(call missing,$(WITHOUT_RECOMMENDS)))"; \
	$(HAVE_POSTGRESQL) || without="$$without postgresql"; \
	$(HAVE_ICU) || without="$$without libicu-dev"; \
	if [ -n "$$with" ]; then $(call apt_install,,$$with); fi; \
	if [ -n "$$without" ]; then $(call apt_install,--no-install-recommends,$$without); fi

# the service alone (make run): nginx and ICU
icu:
	@$(HAVE_ICU) || { $(call apt_install,--no-install-recommends, libicu-dev); }

postgresql:
	@$(HAVE_POSTGRESQL) || { $(call apt_install,--no-install-recommends, postgresql); }

$(NGINX):
	@$(call apt_install,--no-install-recommends, nginx)

$(PY):
	python3 -m venv $(VENV)

# the project's bytecode, written where a module's is out of date: a process that imports a module
# without it compiles the source each time, and does not save it where PYTHONDONTWRITEBYTECODE is
# set (as on the project's machines): 0.08 s of every mjref replay's start, of each server and each
# test's subprocess (docs/performance.md, issue #17); .venv's packages pip compiled
bytecode: | $(PY)
	$(PY) -m compileall -q -j 0 -x '/\.venv/' .

# the service's packages, and mjref itself in editable mode: the `mjref` command (pyproject.toml)
$(STAMP): requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $(STAMP)

$(TEST_STAMP): requirements-test.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-test.txt
	touch $(TEST_STAMP)
