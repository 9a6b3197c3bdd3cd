# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Reference rigid-body algorithms on batches: RNEA, CRBA, kinematics and Jacobians."""
