"""A ``StrEnum`` that also works on Python 3.10, with one ``parse`` for every option set."""

from __future__ import annotations

import enum
import sys
from typing import TypeVar

from nerscore.errors import option_error

if sys.version_info >= (3, 11):  # pragma: no cover - version dependent
    from enum import StrEnum as _Base
else:  # pragma: no cover - version dependent

    class _Base(str, enum.Enum):
        def __str__(self) -> str:
            return str(self.value)


E = TypeVar("E", bound="OptionEnum")


class OptionEnum(_Base):
    """A fixed option set whose members are also plain strings."""

    @classmethod
    def _aliases(cls) -> dict[str, str]:
        return {}

    @classmethod
    def parse(cls: type[E], value: object, *, name: str | None = None) -> E:
        """Normalise a user value (member or string, case-insensitive) to a member.

        Raises
        ------
        OptionError
            Naming the parameter and listing the valid values (a ``ValueError``).
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            key = value.strip()
            aliases = cls._aliases()
            key = aliases.get(key.upper(), key)
            for member in cls:
                if member.value.upper() == key.upper():
                    return member
        param = name or cls.__name__.lower()
        valid = ", ".join(repr(m.value) for m in cls)
        raise option_error(param, f"one of {valid}", value)
