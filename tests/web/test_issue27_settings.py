"""Issue 27 item 4: every ``serve`` option also from ``FOURCARDS_*`` and from a TOML file, flag >
variable > file > default, one documented table of them, a bad value one sentence naming the
option and where it came from (the command's exit: tests/test_cli_bad_input.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer

from fourcards.cli import app
from fourcards.web.settings import ServeSettings, SettingsError, database_url, env_name, flag_name, load

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("FOURCARDS_") and name[len("FOURCARDS_"):].lower() in {*ServeSettings.model_fields, "config"}:
            monkeypatch.delenv(name)


def test_issue27_4_a_flag_beats_the_variable_which_beats_the_file_which_beats_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toml = tmp_path / "fourcards.toml"
    toml.write_text('port = 9001\nworkers = 3\nrate_limits = "seats=120/600"\nlog_format = "json"\n'
                    'retention = "90d"\nmetrics_token = "a-long-secret-token-123"\n')
    monkeypatch.setenv("FOURCARDS_PORT", "9002")
    monkeypatch.setenv("FOURCARDS_WORKERS", "2")
    got = load({"port": 9003}, str(toml))
    assert (got.port, got.workers, got.rate_limits, got.log_format.value) == (9003, 2, "seats=120/600", "json")
    assert got.retention_s == 90 * 86400 and got.metrics_token is not None
    assert "a-long-secret" not in repr(got)  # a secret is not printed with the settings
    assert load({}, str(toml)).port == 9002
    monkeypatch.delenv("FOURCARDS_PORT")
    assert load({}, str(toml)).port == 9001
    assert load({}).port == 8000 and load({}).log_format.value == "text" and load({}).retention is None
    monkeypatch.setenv("FOURCARDS_CONFIG", str(toml))  # the file named by the variable
    assert load({}).port == 9001
    monkeypatch.setenv("FOURCARDS_DATABASE_URL", "")  # empty counts as unset
    toml.write_text('database_url = "sqlite:////srv/cards.db"\n')
    assert database_url(None) == ("sqlite:////srv/cards.db", f"{toml}, key database_url")
    monkeypatch.setenv("FOURCARDS_DATABASE_URL", "sqlite:////env.db")
    assert database_url(None)[0] == "sqlite:////env.db" and database_url("sqlite:////flag.db")[0] == "sqlite:////flag.db"


@pytest.mark.parametrize("flags, env, toml, expected", [
    ({}, {"FOURCARDS_PORT": "80.5"}, "", "--port (from FOURCARDS_PORT): Input should be a valid integer"),
    ({}, {}, "prot = 1\n", "unknown setting 'prot'"),
    ({}, {}, "port = [\n", "is not valid TOML"),
    ({}, {}, 'bot_delay = nan\n', "--bot-delay (from {toml}, key bot_delay): Input should be a finite number"),
    ({"retention": "2h"}, {}, "", "--retention keeps closed tables at least a day"),
    ({}, {"FOURCARDS_LOG_FORMAT": "xml"}, "", "--log-format (from FOURCARDS_LOG_FORMAT)"),
    ({}, {"FOURCARDS_METRICS_TOKEN": "short"}, "", "--metrics-token (from FOURCARDS_METRICS_TOKEN) must be at least 16"),
    ({}, {"FOURCARDS_METRICS_ALLOW_IPS": "prometheus.local"}, "", "'prometheus.local' is not an address"),
    ({}, {"FOURCARDS_PUBLIC_URL": "cards.example.org"}, "", "--public-url (from FOURCARDS_PUBLIC_URL) must be an http"),
])
def test_issue27_4_a_bad_setting_is_one_sentence_naming_the_option_and_its_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: dict, env: dict, toml: str, expected: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(toml)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(SettingsError) as exc:
        load(flags, str(path))
    assert expected.format(toml=path) in str(exc.value) and "\n" not in str(exc.value)
    with pytest.raises(SettingsError, match="no such file"):
        load({}, str(tmp_path / "missing.toml"))


def test_issue27_4_every_serve_option_is_a_setting_with_a_variable_and_a_row_in_the_documented_table() -> None:
    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = {max(p.opts, key=len) for p in serve.params if p.opts} - {"--help", "--config"}
    assert options == {flag_name(f) for f in ServeSettings.model_fields}
    docs = (ROOT / "docs" / "deploy.md").read_text()
    table = docs[docs.index("### Settings"):]
    rows = re.findall(r"^\| `(--[a-z-]+)[^`]*` \| `(FOURCARDS_[A-Z_]+)` \| `([a-z_]+)` \|", table, re.M)
    assert sorted(rows) == sorted((flag_name(f), env_name(f), f) for f in ServeSettings.model_fields)
    for old in ("FOURCARDS_DATABASE_URL", "FOURCARDS_BOT_DELAY", "FOURCARDS_PUBLIC_URL", "FOURCARDS_ALLOWED_ORIGINS",
                "FOURCARDS_RATE_LIMITS", "FOURCARDS_FORWARDED_ALLOW_IPS", "FOURCARDS_TIMEOUT_WORKER_HEALTHCHECK"):
        assert old in {env_name(f) for f in ServeSettings.model_fields}  # the names people already use
