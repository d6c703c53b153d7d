"""python -m engine.tools.littlegolem: the gipf-littlegolem command."""
import sys

from engine.tools.littlegolem.cli import main

sys.exit(main())
