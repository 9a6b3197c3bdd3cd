# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""Exceptions. Every message names the field or element at fault and how to fix it."""


class ModelError(ValueError):
    """A robot model cannot be built from the data given."""


class ModelWarning(UserWarning):
    """A model is usable but suspicious (massless link, triangle inequality violated, …)."""


class URDFError(ModelError):
    """A URDF document cannot be turned into a serial-chain model."""


class DHError(ModelError):
    """A Denavit-Hartenberg document does not follow the schema."""


class SolverError(LookupError):
    """An unknown solver name, or a solver that cannot handle the request."""


class SingularityError(ArithmeticError):
    """The Jacobian is (nearly) singular where its inverse is needed."""
