"""What the ``umtali`` command refuses, and the options it reads before any game is
chosen: file names, ports, seconds, and settings that its environment may give
(:func:`add_setting`). Bad input never shows a traceback: the message says what is
wrong, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Callable
from typing import Final, NoReturn

from umtali.cli.terminal import printable
from umtali.kernel.cards import quoted

__all__ = [
    "ENVIRONMENT_PREFIX",
    "Parser",
    "UsageError",
    "add_setting",
    "environment_variable",
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


def seconds_between(low: float, high: float, unit: str = "seconds") -> Callable[[str], float]:
    """An option of seconds (or of another ``unit`` of time), from ``low`` to ``high`` (a
    tiny or endless run measures nothing, and ``nan`` is no length of time)."""

    def seconds(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{typed(text)!r} is not a number of {unit}: give from {low:g} to {high:g}"
            ) from None
        if not low <= value <= high:  # also refuses nan
            raise argparse.ArgumentTypeError(
                f"give from {low:g} to {high:g} {unit}, not {typed(text)}"
            )
        return value

    return seconds


def whole_between(low: int, high: int) -> Callable[[str], int]:
    """An option of a whole number, from ``low`` to ``high``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{typed(text)!r} is not a whole number: give from {low:,} to {high:,}"
            ) from None
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


ENVIRONMENT_PREFIX: Final = "UMTALI_"
"""What the name of every environment variable that gives a setting begins with."""


def environment_variable(flag: str) -> str:
    """The environment variable that gives the option ``flag`` when it is not typed.

    >>> environment_variable("--max-header-bytes")
    'UMTALI_MAX_HEADER_BYTES'
    """
    return ENVIRONMENT_PREFIX + flag.lstrip("-").replace("-", "_").upper()


class _FromEnvironment(str):
    """An option's value as its environment variable gives it. argparse checks a
    default that is a string with the option's type, as it checks what was typed, and
    only when the option is not typed: this class tells the check which it has."""

    __slots__ = ()


def add_setting(
    parser: argparse.ArgumentParser,
    flag: str,
    check: Callable[[str], float],
    default: float,
    metavar: str,
    what: str,
) -> None:
    """Add the option ``flag``, checked by ``check``: when it is not typed, its value is
    its environment variable's (:func:`environment_variable`, for a server run from
    systemd or a container), else ``default``. The variable's value is checked as a typed
    one is, when it is used; a bad one is a :class:`UsageError` naming the variable.

    >>> parser = argparse.ArgumentParser()
    >>> os.environ["UMTALI_ROUNDS"] = "7"
    >>> add_setting(parser, "--rounds", whole_between(1, 9), 3, "N", "rounds to play")
    >>> parser.parse_args([]).rounds, parser.parse_args(["--rounds", "2"]).rounds
    (7, 2)
    >>> os.environ["UMTALI_ROUNDS"] = "70"
    >>> add_setting(parser := argparse.ArgumentParser(), "--rounds", whole_between(1, 9), 3,
    ...             "N", "rounds to play")
    >>> parser.parse_args([])
    Traceback (most recent call last):
    umtali.cli.usage.UsageError: UMTALI_ROUNDS (environment variable): give from 1 to 9, not 70
    >>> del os.environ["UMTALI_ROUNDS"]
    """
    variable = environment_variable(flag)
    given = os.environ.get(variable)
    told = f"{default:,}" if isinstance(default, int) else f"{default:g}"

    def checked(text: str) -> float:
        if not isinstance(text, _FromEnvironment):
            return check(text)
        try:
            return check(text)
        except (argparse.ArgumentTypeError, ValueError) as e:
            raise UsageError(f"{variable} (environment variable): {e}") from None

    parser.add_argument(
        flag,
        type=checked,
        default=default if given is None else _FromEnvironment(given),
        metavar=metavar,
        help=f"{what} (default {told}; env {variable})",
    )
