"""``python -m svmfs.reproduce <command> ...`` (:mod:`svmfs.reproduce.cli`)."""

import sys

from .cli import main

sys.exit(main())
