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

.PHONY: run test test-pg postgresql icu

run: $(STAMP) $(NGINX) icu
	@echo "mjref 服務啟動 / serving on http://$(HOST):$(PORT)/  (API docs: http://$(HOST):$(PORT)/docs, health: /health)"
	@echo "資料庫 database: $${MJREF_DATABASE:-instance/mjref.sqlite3} (首次啟動時建立 created on first start)"
	@echo "第一個權杖 first token: $(VENV)/bin/mjref tokens create --role admin --label 管理員"
	$(PY) -m mjref.serve --host $(HOST) --port $(PORT) --threads $(THREADS) --processes $(PROCESSES) --user "$(RUN_USER)"

# the browser tests (tests/test_pages_browser.py) drive Debian's Chromium; install it when missing
CHROMIUM := /usr/bin/chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT      := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

# tests/test_any_date.py runs the clock tests with the system date shifted (Debian's faketime)
FAKETIME := /usr/bin/faketime

# the printouts' PDFs are read back page by page (tests/test_event_browser.py: no table split across pages)
PDFTOTEXT := /usr/bin/pdftotext

# the pages' screenshots and the tile pictures' characters (web/tiles_svg.py) use Debian's Noto CJK fonts
NOTO_CJK := /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc

# the whole suite on SQLite, then again on PostgreSQL (issue #16): the tests that store something,
# each in a fresh database of a throwaway cluster the tests start themselves (tests/pgcluster.py)
test: $(TEST_STAMP) $(CHROMIUM) $(FAKETIME) $(NGINX) $(NOTO_CJK) $(PDFTOTEXT) postgresql icu
	$(VENV)/bin/ruff check .  # pyproject.toml [tool.ruff]
	$(PY) -m pytest -q -n 2
	MJREF_TEST_DATABASE=postgresql $(PY) -m pytest -q -n 2

test-pg: $(TEST_STAMP) $(NGINX) postgresql
	MJREF_TEST_DATABASE=postgresql $(PY) -m pytest -q -n 2

# the pages list names by strokes (筆畫) with the system's ICU (web/name_order.py, R-tour-33); Debian's when missing
icu:
	@/sbin/ldconfig -p | grep -q 'libicui18n\.so\.' || { \
	  echo "安裝 ICU（依筆畫排序姓名用）/ installing ICU to list names by strokes"; \
	  $(APT) install -y --no-install-recommends libicu-dev || { $(APT) update && $(APT) install -y --no-install-recommends libicu-dev; }; }

# PostgreSQL's server binaries (initdb, pg_ctl, postgres) for the tests; Debian's package when missing
postgresql:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "安裝 PostgreSQL（測試用）/ installing PostgreSQL for the tests"; \
	  $(APT) install -y --no-install-recommends postgresql || { $(APT) update && $(APT) install -y --no-install-recommends postgresql; }; }

$(CHROMIUM):
	@echo "安裝 Chromium（瀏覽器測試用）/ installing Chromium for the browser tests"
	$(APT) install -y chromium || { $(APT) update && $(APT) install -y chromium; }

$(PDFTOTEXT):
	@echo "安裝 poppler-utils（讀回列印的 PDF）/ installing poppler-utils to read the printed PDFs back"
	$(APT) install -y --no-install-recommends poppler-utils || { $(APT) update && $(APT) install -y --no-install-recommends poppler-utils; }

$(NOTO_CJK):
	@echo "安裝 Noto CJK 字型（頁面截圖與牌圖用）/ installing the Noto CJK fonts for screenshots and tile pictures"
	$(APT) install -y fonts-noto-cjk || { $(APT) update && $(APT) install -y fonts-noto-cjk; }

$(NGINX):
	@echo "安裝 nginx（服務前端）/ installing nginx, the server's front"
	$(APT) install -y --no-install-recommends nginx || { $(APT) update && $(APT) install -y --no-install-recommends nginx; }

$(FAKETIME):
	@echo "安裝 faketime（日期測試用）/ installing faketime for the any-date test"
	$(APT) install -y faketime || { $(APT) update && $(APT) install -y faketime; }

$(PY):
	python3 -m venv $(VENV)

# the service's packages, and mjref itself in editable mode: the `mjref` command (pyproject.toml)
$(STAMP): requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e .
	touch $(STAMP)

$(TEST_STAMP): requirements-test.txt $(STAMP)
	$(PY) -m pip install -q -r requirements-test.txt
	touch $(TEST_STAMP)
