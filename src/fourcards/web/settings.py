"""``fourcards serve``'s settings: each from a flag, an environment variable ``FOURCARDS_*`` or a TOML
file, in that order of precedence, else its default (docs/deploy.md "Settings" has the table).

:class:`ServeSettings` is a ``pydantic-settings`` model: the flags given on the command line are
its keyword arguments, the environment is read with the prefix ``FOURCARDS_`` (``--rate-limits`` is
``FOURCARDS_RATE_LIMITS``; an empty variable counts as unset), and the file is the one ``--config``
(or ``FOURCARDS_CONFIG``) names: TOML keys spelled like the options with underscores
(``rate_limits = "seats=120/600"``). An unknown key in the file is refused, as a value out of
range or of the wrong kind is: :func:`explain` turns pydantic's errors into one sentence naming the
option and where its value came from.

:func:`database_url` is the one lookup of the database URL for every command (``serve``, ``db``,
``admin``): the flag, else ``FOURCARDS_DATABASE_URL``, else the config file's ``database_url``,
else the default SQLite file.
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

__all__ = ["ServeSettings", "LogLevel", "LogFormat", "ENV_PREFIX", "CONFIG_ENV", "SettingsError", "load", "explain", "where",
           "env_name", "flag_name", "database_url", "duration_seconds", "retention_seconds", "trusted_proxies",
           "RETENTION_MIN_S"]

ENV_PREFIX = "FOURCARDS_"
#: The variable naming the TOML file when ``--config`` is not given.
CONFIG_ENV = "FOURCARDS_CONFIG"
#: The shortest retention: a closed table keeps its history at least a day (fourcards.store.retention).
RETENTION_MIN_S = 86400.0
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


class SettingsError(ValueError):
    """A setting that cannot be used: one sentence naming the option and where its value came from."""


class LogLevel(str, Enum):
    """uvicorn's log levels."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


class LogFormat(str, Enum):
    """The log's form: ``text`` (uvicorn's lines, a request id added) or ``json`` (one object per line)."""

    text = "text"
    json = "json"


def duration_seconds(text: str) -> float:
    """Seconds in ``text``: a whole number and a unit - ``s``, ``m`` (minutes), ``h``, ``d``, ``w``
    (``90d``, ``12h``).

    Raises:
        ValueError: anything else.
    """
    m = re.fullmatch(r"\s*(\d{1,6})\s*([smhdw])\s*", text or "")
    if m is None:
        raise ValueError(f"takes a number and a unit - s, m, h, d or w (e.g. 90d, 12h), got {text!r}")
    return float(int(m.group(1)) * _UNITS[m.group(2)])


def retention_seconds(text: str | None) -> float | None:
    """The retention ``text`` (``90d``; ``off``, empty or ``None``: none) in seconds.

    Raises:
        ValueError: not a duration, or less than a day (:data:`RETENTION_MIN_S`).
    """
    if text is None or text.strip().lower() in ("", "off"):
        return None
    seconds = duration_seconds(text)
    if seconds < RETENTION_MIN_S:
        raise ValueError(f"keeps closed tables at least a day (1d or more), got {text!r}")
    return seconds


def trusted_proxies(text: str | None) -> str | None:
    """Addresses or networks as one comma-separated list (uvicorn's form, networks canonical;
    ``None``: none given).

    Raises:
        ValueError: an entry that is not an address, a network (10.0.0.0/8) or ``*``.
    """
    if text is None or not text.strip():
        return None
    items = []
    for item in (x for x in re.split(r"[,\s]+", text.strip()) if x):
        if item == "*":
            items.append(item)
            continue
        try:
            net = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"{item!r} is not an address, a network (10.0.0.0/8) or *") from None
        # an address as itself, a network in its canonical form (10.1.2.3/8 is 10.0.0.0/8)
        items.append(str(net.network_address) if "/" not in item else str(net))
    return ",".join(items)


class ServeSettings(BaseSettings):
    """Every setting of ``fourcards serve`` (see the module doc; the options' help says what each
    does). Validation errors are :class:`pydantic.ValidationError`; :func:`load` turns them into
    one :class:`SettingsError`."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="forbid", env_ignore_empty=True,
                                      validate_default=False)

    host: str | None = Field(None, description="Address to listen on (default 127.0.0.1; with lan 0.0.0.0).")
    port: int = Field(8000, ge=1, le=65535, description="TCP port.")
    lan: bool = Field(False, description="Listen on every interface and print the join link with a QR code.")
    public_url: str | None = Field(None, description="The address people open (links, QR codes, allowed origin).")
    database_url: str | None = Field(None, description="SQLAlchemy URL of the database.")
    bot_delay: float = Field(0.7, ge=0.0, le=10.0, allow_inf_nan=False, description="Seconds between bot moves.")
    workers: int = Field(1, ge=1, le=64, description="Server processes sharing the socket and the database.")
    log_level: LogLevel = Field(LogLevel.info, description="Log level.")
    log_format: LogFormat = Field(LogFormat.text, description="text, or json: one JSON object per line.")
    forwarded_allow_ips: str | None = Field(None, description="Trusted reverse proxies.")
    allowed_origins: str | None = Field(None, description="Other sites whose pages may open websockets.")
    rate_limits: str | None = Field(None, description="Limits per client address, or off.")
    timeout_worker_healthcheck: float = Field(60.0, ge=1.0, le=3600.0, allow_inf_nan=False,
                                              description="Seconds a worker may take to answer its health check.")
    retention: str | None = Field(None, description="Prune closed tables last written longer ago (e.g. 90d), or off.")
    metrics_allow_ips: str | None = Field(None, description="Addresses or networks that may read /metrics.")
    metrics_token: SecretStr | None = Field(None, description="A bearer token that may read /metrics from anywhere.")
    agent: list[str] = Field(default_factory=list, description="Agent files seated as bots: NAME=PATH each.")

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags, then the environment, then the TOML file (``model_config["toml_file"]``: set by
        :func:`load`), then the defaults."""
        return init_settings, env_settings, TomlConfigSettingsSource(settings_cls)

    @field_validator("host")
    @classmethod
    def _host(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("is empty: give an address such as 127.0.0.1, or 0.0.0.0 for every network")
        return value

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("is empty: give a database URL such as sqlite:///path/to/file.db")
        return value

    @field_validator("public_url")
    @classmethod
    def _public_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", value):
            raise ValueError(f"must be an http:// or https:// address such as http://192.168.1.20:8000, got {value!r}")
        return value

    @field_validator("forwarded_allow_ips", "metrics_allow_ips")
    @classmethod
    def _addresses(cls, value: str | None) -> str | None:
        return trusted_proxies(value)

    @field_validator("allowed_origins")
    @classmethod
    def _origins(cls, value: str | None) -> str | None:
        from fourcards.web.security import parse_origins

        parse_origins(value)
        return value

    @field_validator("rate_limits")
    @classmethod
    def _limits(cls, value: str | None) -> str | None:
        from fourcards.web.limits import RateLimits

        RateLimits.parse(value)
        return value

    @field_validator("retention")
    @classmethod
    def _retention(cls, value: str | None) -> str | None:
        return None if retention_seconds(value) is None else (value or "").strip()

    @field_validator("metrics_token")
    @classmethod
    def _token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        if len(value.get_secret_value()) < 16 or not value.get_secret_value().isprintable():
            raise ValueError("must be at least 16 printable characters (e.g. openssl rand -hex 24)")
        return value

    @property
    def retention_s(self) -> float | None:
        """The retention in seconds (``None``: off)."""
        return retention_seconds(self.retention)


def env_name(field: str) -> str:
    """The environment variable of a setting (``rate_limits`` -> ``FOURCARDS_RATE_LIMITS``)."""
    return ENV_PREFIX + field.upper()


def flag_name(field: str) -> str:
    """The option of a setting (``rate_limits`` -> ``--rate-limits``)."""
    return "--" + field.replace("_", "-")


def _config_path(given: str | None) -> tuple[Path | None, str]:
    """The TOML file to read and how it was named (for messages)."""
    if given is not None:
        return Path(given), "--config"
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env), CONFIG_ENV
    return None, ""


def _read_toml(path: Path, named: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise SettingsError(f"{named}: no such file {str(path)!r}") from None
    except IsADirectoryError:
        raise SettingsError(f"{named}: {str(path)!r} is a folder, not a TOML file") from None
    except OSError as exc:
        raise SettingsError(f"{named}: cannot read {str(path)!r}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"{named}: {str(path)!r} is not valid TOML: {exc}") from None


def where(field: str, flags: dict[str, Any], file: dict[str, Any], path: Path | None) -> str:
    """Where a setting's value came from: its flag, its variable, the file, or the default."""
    if field in flags:
        return flag_name(field)
    if os.environ.get(env_name(field)):
        return env_name(field)
    if field in file and path is not None:
        return f"{path}, key {field}"
    return "the default"


def explain(exc: ValidationError, flags: dict[str, Any], file: dict[str, Any], path: Path | None) -> str:
    """pydantic's first error as one sentence: the option, where its value came from, what is wrong."""
    e = exc.errors()[0]
    field = str(e["loc"][0]) if e.get("loc") else ""
    if e.get("type") == "extra_forbidden":
        known = ", ".join(ServeSettings.model_fields)
        return f"{path}: unknown setting {field!r} (the settings are {known})"
    msg = str(e.get("ctx", {}).get("error") or e.get("msg")) if e.get("type") == "value_error" else str(e.get("msg"))
    source = where(field, flags, file, path)
    named = flag_name(field) + ("" if source == flag_name(field) else f" (from {source})")
    # "--port: Input should be ...", "--public-url must be ..." (a sentence of our own, as before)
    return f"{named}{' ' if msg.split(' ', 1)[0] in ('must', 'is', 'keeps', 'takes') else ': '}{msg}"


def load(flags: dict[str, Any] | None = None, config: str | None = None) -> ServeSettings:
    """The settings: ``flags`` (the options given on the command line, by field name) over the
    environment over the TOML file ``config`` (``None``: ``FOURCARDS_CONFIG``'s, if set) over the
    defaults.

    Raises:
        SettingsError: a file that cannot be read, an unknown key in it, a value that cannot be used.
    """
    flags = dict(flags or {})
    path, named = _config_path(config)
    file = _read_toml(path, named) if path is not None else {}
    cls: Any = ServeSettings
    if path is not None:  # the same settings reading that file too
        cls = type("ServeSettings", (ServeSettings,), {"model_config": {**ServeSettings.model_config,
                                                                         "toml_file": path}})
    try:
        return cls(**flags)
    except ValidationError as exc:
        raise SettingsError(explain(exc, flags, file, path)) from None


def database_url(option: str | None) -> tuple[str, str]:
    """The database URL and where it came from (for messages): ``option`` (``--database-url``),
    else ``FOURCARDS_DATABASE_URL``, else the ``database_url`` of ``FOURCARDS_CONFIG``'s file, else
    the default SQLite file (its folder created).

    Raises:
        SettingsError: an empty option or value, a file that cannot be read, a default folder that
            cannot be created.
    """
    from fourcards.store import default_database_url

    if option is not None:
        if not option.strip():
            raise SettingsError("--database-url is empty: give a database URL such as sqlite:///path/to/file.db")
        return option, "--database-url"
    env = os.environ.get(env_name("database_url"))
    if env:
        return env, env_name("database_url")
    path, named = _config_path(None)
    if path is not None:
        value = _read_toml(path, named).get("database_url")
        if isinstance(value, str) and value.strip():
            return value, f"{path}, key database_url"
    try:
        return default_database_url(), "the default database"
    except OSError as exc:
        raise SettingsError(f"cannot create the default database folder {exc.filename!r}: {exc.strerror} "
                            "(give --database-url)") from None
