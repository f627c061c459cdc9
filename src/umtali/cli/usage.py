"""What the ``umtali`` command refuses, and the options it reads before any game is
chosen: file names, ports, seconds. Bad input never shows a traceback: the message says
what is wrong, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Callable
from typing import NoReturn

from umtali.cli.terminal import printable
from umtali.kernel.cards import quoted

__all__ = [
    "Parser",
    "UsageError",
    "file_name",
    "port",
    "proxy_addresses",
    "seconds_between",
    "typed",
    "whole_between",
]


class UsageError(Exception):
    """A command-line value that cannot be used; the message says why."""


def typed(text: str) -> str:
    """What was typed, as a message quotes it back: cut short, control characters escaped."""
    return printable(quoted(text, bare=True))


def file_name(text: str) -> str:
    """An option naming a file: not empty, no NUL (the system cannot take one)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a file name is needed here, not an empty one")
    if "\0" in text:
        raise argparse.ArgumentTypeError("a file name cannot hold a NUL character")
    return text


def port(text: str) -> int:
    """A TCP port to listen on: a whole number from 1 to 65535."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"give a port from 1 to 65535, not {typed(text)}")
    return number


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    """An option of seconds, from ``low`` to ``high`` (a tiny or endless run measures
    nothing, and ``nan`` is no length of time)."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{typed(text)!r} is not a number of seconds"
            ) from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"give from {low:g} to {high:g} seconds, not {typed(text)}"
            )
        return value

    return seconds


def whole_between(low: int, high: int) -> Callable[[str], int]:
    """An option of a whole number, from ``low`` to ``high``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{typed(text)!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give from {low:,} to {high:,}, not {typed(text)}")
        return value

    return whole


class Parser(argparse.ArgumentParser):
    """argparse, whose messages quote what was typed shortened and escaped: a 5 MB
    argument or an escape sequence is not sent back whole to the terminal."""

    def error(self, message: str) -> NoReturn:
        super().error(printable(quoted(message, 300, bare=True)))


def proxy_addresses(text: str) -> str:
    """An option naming trusted proxies: IP addresses or networks, comma-separated, or
    ``*``; returned as typed (uvicorn's ``forwarded_allow_ips``).

    >>> proxy_addresses("127.0.0.1, 10.0.0.0/8")
    '127.0.0.1, 10.0.0.0/8'
    >>> proxy_addresses("localhost")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 'localhost' is not an IP address or network; give addresses such as 127.0.0.1 or 10.0.0.0/8, comma-separated, or *
    """
    if text.strip() == "*":
        return "*"
    for part in text.split(","):
        try:
            ipaddress.ip_network(part.strip(), strict=False)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{typed(part.strip())!r} is not an IP address or network; give addresses"
                " such as 127.0.0.1 or 10.0.0.0/8, comma-separated, or *"
            ) from None
    return text
