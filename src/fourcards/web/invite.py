"""Inviting people to a table: this machine's address on the local network, the server's
public address, and QR codes (segno) of a link - as SVG for pages, as text for a terminal.

Finding the LAN address sends nothing: connecting a UDP socket only asks the
operating system which local address would route to a private-range address
(no packet leaves); if that gives nothing, the addresses of the host name are
tried. Loopback (127.x, ::1) and unspecified (0.0.0.0) addresses are never
returned: no phone can open them.
"""

from __future__ import annotations

import io
import ipaddress
import socket

__all__ = ["lan_address", "usable_address", "public_url", "qr_svg", "qr_text", "WILDCARD_HOSTS"]

#: Listening addresses meaning "every interface".
WILDCARD_HOSTS = ("0.0.0.0", "::", "")

_PROBE = ("10.254.254.254", 1)  # any private address: connect() on UDP sends no packet


def usable_address(address: str) -> bool:
    """Whether another device could reach this machine at ``address`` (an IP address that
    is not loopback, unspecified, link-local or multicast)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, or ``None`` when it has none
    (see the module doc; nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            address = s.getsockname()[0]
        if usable_address(address):
            return str(address)
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    return next((str(i[4][0]) for i in infos if usable_address(str(i[4][0]))), None)


def public_url(host: str, port: int, *, lan: bool = False, given: str | None = None) -> str | None:
    """The address people open to reach a server listening on ``host:port``: ``given``
    (``--public-url``) as is; else for a wildcard host (``--lan``, ``0.0.0.0``) this
    machine's LAN address; else ``host`` itself. ``None`` when a wildcard host has no
    LAN address.
    """
    if given:
        return given.rstrip("/")
    if lan or host in WILDCARD_HOSTS:
        address = lan_address()
        return None if address is None else f"http://{address}:{port}"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG document (dark modules on white, scalable)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=8, border=2, xmldecl=False,
                                                  svgns=True, title=url)
    return out.getvalue().decode("utf-8")


def qr_text(url: str) -> str:
    """A QR code of ``url`` for a terminal (segno's compact form: two rows of modules per
    line in Unicode half blocks, light modules drawn)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()
