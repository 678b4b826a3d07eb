"""Bad input at the command line (issue 9, item 6): every number is bounded up front,
an empty pay table is refused (never replaced by the preset's), and every start-up
or configuration error of ``fourcards serve`` is one ``error:`` line, exit 2."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from fourcards.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out = capsys.readouterr()
    return exc.value.code or 0, out.out, out.err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


SETTLE = ["poker", "settle", "--player", "9h 9d 9s Kc 3d", "--dealer", "Qd Qs 8c 8h 4s 2d"]
HUGE = "100000000000000000000"


@pytest.mark.parametrize("argv, option", [
    (["poker", "simulate", "--hands", HUGE], "--hands"),
    (["poker", "simulate", "--hands", "1000", "--ante", HUGE], "--ante"),
    (["poker", "simulate", "--hands", "1000", "--aces-up-bet", HUGE], "--aces-up-bet"),
    (["poker", "simulate", "--hands", "1000", "--session-hands", HUGE, "--bankroll", "100"], "--session-hands"),
    (["poker", "simulate", "--hands", "1000", "--session-hands", "10", "--bankroll", HUGE], "--bankroll"),
    (["poker", "simulate", "--hands", "1000", "--seed", HUGE], "--seed"),
    (["poker", "simulate", "--hands", "1000", "--workers", "100000"], "--workers"),
    (["kind", "simulate", "--deals", HUGE, "--players", "4", "--bots", "odds"], "--deals"),
    (["kind", "simulate", "--deals", "10", "--players", HUGE, "--bots", "odds"], "--players"),
    (["kind", "simulate", "--deals", "10", "--players", "4", "--bots", "odds", "--stack", HUGE], "--stack"),
    (["kind", "play", "--players", "4", "--stack", HUGE], "--stack"),
    (["kind", "play", "--players", "4", "--deals", HUGE], "--deals"),
    (["kind", "play", "--players", "4", "--seed", HUGE], "--seed"),
    (["kind", "play", "--players", HUGE], "--players"),
    (["kind", "play", "--players", "4", "--bots", HUGE], "--bots"),
    (["kind", "settle", "--pot", HUGE, "7", "QQ", "3", "9999"], "--pot"),
    (["kind", "settle", "--pot", "-60", "7", "QQ", "3", "9999"], "--pot"),
    ([*SETTLE, "--ante", HUGE, "--play", "10"], "--ante"),
    ([*SETTLE, "--ante", "10", "--play", HUGE], "--play"),
    ([*SETTLE, "--ante", "10", "--fold", "--aces-up", HUGE], "--aces-up"),
])
def test_every_cli_number_bounded_up_front(capsys, argv: list[str], option: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert option in line and "than or equal to" in line, line


@pytest.mark.parametrize("argv, what", [
    (["poker", "analyze", "--aces-up", ""], "Aces Up"),
    (["poker", "analyze", "--ante-bonus", ""], "ante bonus"),
    (["poker", "analyze", "--aces-up", " "], "Aces Up"),
    (["poker", "strategy", "--chart", "--ante-bonus", ""], "ante bonus"),
    (["poker", "simulate", "--hands", "1000", "--aces-up", ""], "Aces Up"),
    (["poker", "simulate", "--hands", "1000", "--ante-bonus", ""], "ante bonus"),
])
def test_empty_pay_table_option_refused_not_replaced(capsys, argv: list[str], what: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert what in one_error_line(err)


@pytest.mark.parametrize("table", ["1/1/1/1/9999999999999999/9999999999999999/9999999999999999",
                                   "50/40/8/5/4/3/" + "9" * 5000])
def test_pay_table_beyond_a_million_to_one_refused(capsys, table: str) -> None:
    code, out, err = run(capsys, "poker", "analyze", "--aces-up", table)
    assert code == 2 and out == ""
    assert "at most 1,000,000 to 1" in one_error_line(err)


@pytest.mark.parametrize("argv, option", [
    (["poker", "strategy", "--chart", "--png", ""], "--png"),
    (["poker", "strategy", "--chart", "--csv", ""], "--csv"),
    (["poker", "analyze", "--out", ""], "--out"),
    (["poker", "simulate", "--hands", "1000", "--plot", ""], "--plot"),
    (["kind", "play", "--players", "4", "--bots", "4", "--history", ""], "--history"),
    (["kind", "play", "--replay", ""], "--replay"),
])
def test_empty_file_option_refused_not_read_as_the_current_folder(capsys, tmp_path, monkeypatch,
                                                                  argv: list[str], option: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert option in one_error_line(err)
    assert list(tmp_path.iterdir()) == []  # no ".png" or other file written


# ------------------------------------------------------------------ fourcards serve


def serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if k != "FOURCARDS_DATABASE_URL"}
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "fourcards", "serve", *args], capture_output=True,
                          text=True, timeout=90, env=e)


def test_serve_configuration_errors_are_one_error_line(tmp_path) -> None:
    good = f"sqlite:///{tmp_path / 'ok.db'}"
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("prot = 8000\n")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        cases = [
            (["--database-url", "bogus://x"], {}, "bogus"),
            (["--database-url", "not a url"], {}, "database URL"),
            (["--database-url", "mysql://u:p@127.0.0.1/x"], {}, "mysql"),
            (["--database-url", "postgresql+psycopg://fc:s3cret@127.0.0.1:1/fc"], {}, "Connection refused"),
            (["--database-url", "sqlite:////proc/fourcards-nope/x.db"], {}, "/proc/fourcards-nope"),
            (["--database-url", ""], {}, "--database-url"),
            ([], {"FOURCARDS_DATABASE_URL": "bogus://y"}, "FOURCARDS_DATABASE_URL"),
            (["--database-url", good, "--port", port], {}, port),
            (["--database-url", good, "--port", "0"], {}, "--port"),
            (["--database-url", good, "--port", "70000"], {}, "--port"),
            (["--database-url", good, "--host", ""], {}, "--host"),
            (["--database-url", good, "--bot-delay", "nan"], {}, "--bot-delay"),
            (["--database-url", good, "--log-level", "loud"], {}, "--log-level"),
            # issue 26's options (each also from its FOURCARDS_* variable)
            (["--database-url", good, "--forwarded-allow-ips", "proxy.example"], {}, "--forwarded-allow-ips"),
            (["--database-url", good], {"FOURCARDS_FORWARDED_ALLOW_IPS": "10.0.0.300"}, "--forwarded-allow-ips"),
            (["--database-url", good, "--allowed-origins", "ftp://x"], {}, "--allowed-origins"),
            (["--database-url", good, "--allowed-origins", "https://a.example/path"], {}, "--allowed-origins"),
            (["--database-url", good, "--rate-limits", "tables=many"], {}, "--rate-limits"),
            (["--database-url", good], {"FOURCARDS_RATE_LIMITS": "games=1/60"}, "--rate-limits"),
            (["--database-url", good, "--timeout-worker-healthcheck", "0"], {}, "--timeout-worker-healthcheck"),
            (["--database-url", good, "--timeout-worker-healthcheck", "nan"], {}, "--timeout-worker-healthcheck"),
            # issue 27's settings: flags, FOURCARDS_* variables and the --config file
            (["--database-url", good, "--retention", "2h"], {}, "--retention"),
            (["--database-url", good, "--log-format", "xml"], {}, "--log-format"),
            (["--database-url", good], {"FOURCARDS_PORT": "80.5"}, "--port (from FOURCARDS_PORT)"),
            (["--database-url", good], {"FOURCARDS_METRICS_TOKEN": "short"}, "--metrics-token"),
            (["--database-url", good, "--config", str(tmp_path / "missing.toml")], {}, "--config: no such file"),
            (["--database-url", good, "--config", str(bad_toml)], {}, "unknown setting 'prot'"),
            (["--database-url", good], {"FOURCARDS_CONFIG": str(tmp_path)}, "FOURCARDS_CONFIG"),
        ]
        for args, env, needle in cases:
            r = serve(*args, env=env)
            assert r.returncode == 2, (args, r.returncode, r.stderr)
            line = one_error_line(r.stderr)
            assert needle in line, (args, line)
            assert "Traceback" not in r.stderr and "s3cret" not in r.stderr


def _whole_number_options() -> list[tuple[list[str], str]]:
    """(command path, option flag) of every whole-number option of every command."""
    import typer

    from fourcards.cli import app

    out = []

    def walk(cmd, path: list[str]) -> None:
        for p in getattr(cmd, "params", ()):
            desc = getattr(p, "type_descriptor", None)
            if desc is not None and desc.annotation in (int, list[int]) and p.opts:
                out.append((path, max(p.opts, key=len)))
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return out


@pytest.mark.parametrize("path, option", _whole_number_options(), ids=lambda x: " ".join(x) if isinstance(x, list)
                         else x)
@pytest.mark.parametrize("text", ["30.0", "1_000"])
def test_issue26_7_every_whole_number_option_refuses_text_that_is_not_digits(capsys, path, option, text) -> None:
    """Typer read ``poker settle --play 30.0`` as 30 (pydantic's lax mode); now every whole-number
    option of every command says the value is not a whole number and nothing runs."""
    code, out, err = run(capsys, *path, option, text)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert option in line and f"'{text}' is not a whole number" in line, line


def test_issue26_7_poker_settle_play_30_0_is_refused_and_30_is_not(capsys) -> None:
    code, _, err = run(capsys, *SETTLE, "--up", "Qd", "--ante", "10", "--play", "30.0", "--json")
    assert code == 2 and "--play" in one_error_line(err)
    code, out, _ = run(capsys, *SETTLE, "--up", "Qd", "--ante", "10", "--play", "30", "--json")
    assert code == 0 and '"play": 30' in out


def test_issue26_7_kind_odds_1010_is_not_a_holding(capsys) -> None:
    """``kind odds 1010 3`` ran as two tens; it reads like a number: tens together are T."""
    code, out, err = run(capsys, "kind", "odds", "1010", "3")
    assert code == 2 and out == ""
    assert "'1010'" in one_error_line(err) and "TT" in err
    assert run(capsys, "kind", "odds", "TT", "3")[0] == 0
