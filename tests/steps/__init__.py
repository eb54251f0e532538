"""Step definitions, one module per area; tests/conftest.py loads every module here."""
