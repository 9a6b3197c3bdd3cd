# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Analysis of the solvers: operation counting and cross-verification."""
