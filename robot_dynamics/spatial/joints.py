# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Joint types: the one home of their names."""

REVOLUTE = 'revolute'
PRISMATIC = 'prismatic'
JOINT_TYPES = (REVOLUTE, PRISMATIC)
