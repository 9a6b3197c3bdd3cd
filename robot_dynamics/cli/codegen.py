# Copyright 2026 robot_dynamics contributors
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""``codegen``: write a model's customised dynamic model (seed 001) as Python or C."""

import robot_dynamics as rd
from robot_dynamics.cli.common import (
    add_model_argument, check_outputs, load_model, model_inputs, print_json,
)
from robot_dynamics.codegen.generator import FUNCTIONS

EPILOG = """\
examples:
  robot-dynamics codegen puma560 -o puma560_dynamics.py
  robot-dynamics codegen renaud_6r --symbolic -o renaud_6r.py        # the paper's 6R example
  robot-dynamics codegen ur5 --functions all -o ur5_dynamics.c         # C: every function
  robot-dynamics codegen my_arm.urdf --regroup augmented -o arm.py

Develops the recursive Newton-Euler equations for this one robot (Renaud's customised
model): straight-line code with named intermediates, no operation with 0 or +-1, shared
common subexpressions, sin/cos once per joint. The file's header gives the operation
count (sin/cos not counted, as in the paper). The language follows the extension
(.c/.h: C, otherwise Python) unless --language is given.
"""


def add_parsers(subparsers, formatter):
    """Register ``codegen``."""
    parser = subparsers.add_parser(
        'codegen', help="write the customised dynamic model (Renaud's method) as code",
        description='Generate straight-line code for one model.', epilog=EPILOG,
        formatter_class=formatter)
    add_model_argument(parser)
    parser.add_argument('-o', '--output', required=True, metavar='FILE',
                        help='file to write (.py, .c or .h)')
    parser.add_argument('--language', choices=('python', 'c'), help='default: from FILE')
    parser.add_argument('--symbolic', action='store_true',
                        help='keep the inertial parameters as named symbols (default: numbers)')
    parser.add_argument('--regroup', choices=('base', 'augmented', 'none'), default='base',
                        help='regrouping of inertial parameters (default: base)')
    parser.add_argument('--functions', default='inverse_dynamics', metavar='NAMES',
                        help=f'comma-separated from {", ".join(FUNCTIONS)}, or "all" '
                             '(default: inverse_dynamics)')
    parser.add_argument('--json', action='store_true', help='print the counts as JSON')
    parser.set_defaults(handler=run_codegen)


def run_codegen(args):
    """Generate, write the file and print the operation counts."""
    model = load_model(args)
    check_outputs([args.output], model_inputs(args))
    functions = 'all' if args.functions == 'all' else [
        name.strip() for name in args.functions.split(',') if name.strip()]
    unknown = [] if functions == 'all' else [f for f in functions if f not in FUNCTIONS]
    if unknown:
        raise ValueError(f'--functions: unknown {unknown}; choose from {", ".join(FUNCTIONS)} '
                         'or "all"')
    generated = rd.generate(model, symbolic_inertia=args.symbolic,
                            regroup_parameters=args.regroup, functions=functions)
    path = generated.write(args.output, language=args.language)
    counts = {name: {'multiplications': f.counts['mul'], 'additions': f.counts['add'],
                     'divisions': f.counts['div']}
              for name, f in generated.functions.items()}
    if args.json:
        print_json({'model': model.name, 'file': str(path), 'functions': counts,
                    'multiplications': generated.multiplications,
                    'additions': generated.additions})
        return 0
    print(f'{model.name}: customised model written to {path} '
          f'({"symbolic" if args.symbolic else "numeric"} parameters, {args.regroup} '
          'regrouping)')
    for name, count in counts.items():
        divisions = f', {count["divisions"]} divisions' if count['divisions'] else ''
        print(f'  {name:18s} {count["multiplications"]:6d} multiplications '
              f'{count["additions"]:6d} additions{divisions}')
    return 0
