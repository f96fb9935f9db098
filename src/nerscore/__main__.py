"""``python -m nerscore``: the ``nerscore`` command line."""

from nerscore.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
