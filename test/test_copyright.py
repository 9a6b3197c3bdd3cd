# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0
"""ament_python template check: every source file carries the copyright and license header.

Uses ament_copyright where it is installed (a ROS workspace); otherwise checks the same
header directly, so the check runs everywhere.
"""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADER = ('# Copyright 2026 robot_dynamics contributors',
          '# Licensed under the Apache License, Version 2.0')
SKIP = {'.venv', 'build', 'install', 'log', '.git', 'out'}


def python_sources():
    """Every tracked-looking Python file of the package, its tests, tools and launch files."""
    for path in sorted(ROOT.rglob('*.py')):
        if not SKIP.intersection(path.relative_to(ROOT).parts):
            yield path


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright():
    try:
        from ament_copyright.main import main
    except ImportError:
        missing = [str(p.relative_to(ROOT)) for p in python_sources()
                   if tuple(p.read_text(encoding='utf-8').splitlines()[:2]) != HEADER]
        assert not missing, f'files without the copyright/license header: {missing}'
    else:  # pragma: no cover - only in a ROS workspace
        assert main(argv=['.', 'test']) == 0, 'Found errors'
