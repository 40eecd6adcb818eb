"""Entry point of the frozen application."""

import sys

from tabletop.cli import main

if __name__ == "__main__":
    sys.exit(main())
