# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""``python -m robot_dynamics``: the ``robot-dynamics`` command line."""

import sys

from robot_dynamics.cli import main

if __name__ == '__main__':
    sys.exit(main())
