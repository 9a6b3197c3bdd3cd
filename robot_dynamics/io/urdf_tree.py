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
"""The kinematic tree of a URDF: checks, rigid bodies, and the choice of the serial chain.

Every walk is an explicit loop over a stack (no recursion, any depth) and visits each link a
bounded number of times, so the work is linear in the number of links.

Chain choice without ``tip_link`` (documented in docs/models.md):

1. Moving joints are ``revolute``, ``continuous``, ``prismatic``, ``floating`` and ``planar``
   joints (the last two cannot be chain joints: followed only where no serial joint leaves
   the body, and refused with a clear error; beside a serial joint they count as fixed and
   are locked; alone above the default base, it is below them: :meth:`Tree.default_base`).
   Fixed joints are transparent: links joined by fixed joints form one rigid body. A joint
   with ``<mimic>`` counts in the path lengths; where the chain would continue through one,
   it ends and the mimic's branch is locked (a gripper's coupled finger), unless a joint
   without ``<mimic>`` lies below it (a palletizer's parallelogram joint mid-arm): then the
   chain goes on through it, a coordinate of its own as in Pinocchio and KDL.
2. From the base, the chain follows the moving joint with the longest moving path below it.
   Shorter moving side branches are locked (merged rigidly into the body they hang from).
3. Where several moving branches tie for the longest path, they form an end effector (a
   gripper's fingers) if they are shorter than the moving chain already walked: the chain ends
   there and they are locked. Otherwise the choice is ambiguous and the error lists the
   candidate tips.
4. The tool frame is on the last moving link's rigid body: its single end if its fixed links
   form one path; else the deepest link named like a tool frame (:data:`TOOL_NAMES`: exactly,
   ending in ``_`` + the name, or the name + ``_link`` or ``_frame``: Kinova's and
   OpenManipulator's ``end_effector_link``; ties by the order of the list, then
   alphabetically); else the last moving link itself.

The choice is explained (:attr:`Tree.choice`, kept as ``RobotModel.chain_choice``); a doubtful
one is also a ``ModelWarning`` naming the fix (issue 36): a last chain joint named like a
gripper's (:data:`GRIPPER_WORDS`: a Z1-class arm's ``jointGripper`` becomes the 7th joint), or
a tool frame no rule names (fixed links that branch, none named like a tool frame: a
TIAGo-class wrist puts it on ``arm_7_link``).
"""

from robot_dynamics.errors import URDFError, warn
from robot_dynamics.io.urdf_elements import IDENTITY

TOOL_NAMES = ('tool0', 'tcp', 'tool', 'flange', 'ee_link', 'end_effector', 'ee')
#: Words in a joint's or its child link's name that make it look like a gripper's joint.
GRIPPER_WORDS = ('gripper', 'finger', 'hand', 'jaw', 'claw')
CHAIN_TYPES = ('revolute', 'continuous', 'prismatic', 'floating', 'planar')
SERIAL = CHAIN_TYPES[:3]
TIP_HINT = 'pass tip_link= (command line: --tip-link)'


def compose(a, b):
    """Pose ``a`` then ``b``: ``(R_a R_b, p_a + R_a p_b)``.

    After :data:`~.urdf_elements.IDENTITY` (a body's own frame), ``b`` itself plus 0.0: the
    products' values, a zero always +0 (as a product with the identity gives it).
    """
    if a is IDENTITY:
        return b[0] + 0.0, b[1] + 0.0
    return a[0] @ b[0], a[1] + a[0] @ b[1]


def compose_all(poses, stacked):
    """:func:`compose` of each of ``poses`` with the row of ``stacked`` (``R`` (N, 3, 3), ``p``).

    Returns rotations (N, 3, 3) and translations (N, 3), the same values, bit for bit: the rows
    after :data:`~.urdf_elements.IDENTITY` (most) at once.
    """
    Rb, pb = stacked
    R, p = compose(IDENTITY, stacked)
    for k, a in enumerate(poses):
        if a is not IDENTITY:
            R[k], p[k] = compose(a, (Rb[k], pb[k]))
    return R, p


class Tree:
    """Parent and children maps of a :class:`~robot_dynamics.io.urdf_elements.Document`."""

    def __init__(self, document):
        self.document, self._rigid, self._driven = document, {}, None
        self.choice = ''                          # why choose_tip chose what it did
        links, parents, children = document.links, {}, {name: [] for name in document.links}
        self.parent_joint, self.children = parents, children
        for joint in document.joints.values():
            parent, child = joint.parent, joint.child
            if parent not in links or child not in links:
                link = child if parent in links else parent
                raise URDFError(f'joint {joint.name!r} names unknown link {link!r}; declare '
                                f'<link name="{link}"/>')
            if child in parents:
                raise URDFError(f'link {child!r} has two parent joints '
                                f'({parents[child].name!r} and {joint.name!r}): '
                                'a kinematic loop; only trees are supported')
            parents[child] = joint
            children[parent].append(joint)
        roots = [link for link in links if link not in parents]
        if not document.links:
            raise URDFError('the URDF has no <link>: a robot description needs at least one '
                            '<link name="..."/> inside <robot> (and a <joint> per moving '
                            'part); is it the right file or parameter?')
        if len(roots) != 1:
            raise URDFError(f'URDF must form one tree with one root link, found roots {roots}; '
                            'a cycle or a disconnected link?')
        self.root = roots[0]
        self.order = self._breadth_first()
        if len(self.order) != len(document.links):
            cut = sorted(set(document.links) - set(self.order))[:10]
            raise URDFError(f'links {cut} are not below the root {self.root!r}: a cycle; only '
                            'trees are supported')

    def _breadth_first(self):
        order = [self.root]
        for link in order:                       # the list grows while it is walked
            order.extend(joint.child for joint in self.children[link])
        return order

    def check_link(self, name, role):
        """Raise unless ``name`` is a link (``role``: 'base_link' or 'tip_link')."""
        if name not in self.document.links:
            close = sorted(link for link in self.document.links
                           if name.lower() in link.lower())[:10]
            hint = f'; similar: {close}' if close else ''
            links = sorted(self.document.links)
            listed = links[:40] + ([f'... {len(links) - 40} more'] if len(links) > 40 else [])
            raise URDFError(f'{role}: unknown link {name!r}{hint}; the root is {self.root!r}; '
                            f"set {role} to one of the URDF's links {listed}, or '' for the "
                            'default')

    def path(self, base, tip):
        """Joints from ``base`` down to ``tip`` (moving and fixed)."""
        joints, link = [], tip
        while link != base:
            joint = self.parent_joint.get(link)
            if joint is None:
                raise URDFError(f'no path from base_link {base!r} to tip_link {tip!r}: '
                                f'{tip!r} is not below {base!r}; choose links of one branch')
            joints.append(joint)
            link = joint.parent
        return joints[::-1]

    def rigid_body(self, link):
        """Links fixed to ``link`` with their poses in its frame, and the moving joints leaving.

        Returns ``(poses, exits)``: ``poses`` maps each link of the rigid body (``link``
        first, depth-first order) to ``(R, p)``; ``exits`` lists the moving joints whose parent
        is in the body, in document order per link. Computed once per link (cached).
        """
        if link in self._rigid:
            return self._rigid[link]
        poses, exits, stack = {}, [], [(link, IDENTITY)]
        while stack:
            name, pose = stack.pop()
            poses[name] = pose
            for joint in reversed(self.children[name]):
                if joint.moving:
                    exits.append(joint)
                else:
                    stack.append((joint.child, compose(pose, joint.origin)))
        self._rigid[link] = poses, exits
        return poses, exits

    # ------------------------------------------------------------------ chain choice
    def default_base(self):
        """Return the default base: the root, or below the floating or planar joint leaving it.

        A mobile or floating base above the arm (``world`` → floating → ``base_link``, a
        planar ``odom`` joint) is the one moving joint leaving the root's rigid body: the fixed
        base is its child (as Pinocchio's model with it locked at its origin), repeated while
        that holds and a serial joint is below. Returns ``(base, the joints passed)``.
        """
        base, passed, depth = self.root, [], None
        while True:
            exits = self.rigid_body(base)[1]
            if len(exits) != 1 or exits[0].type in SERIAL:
                return base, passed
            depth = depth or self._moving_depth()
            if not depth[exits[0].child]:            # nothing serial below: its own error
                return base, passed
            passed.append(exits[0])
            base = exits[0].child

    def choose_tip(self, base):
        """Return the tip link chosen by the rules of the module docstring.

        :attr:`choice` then says which chain and tool frame, and why; a doubtful choice is
        also a ``ModelWarning`` (:meth:`_explain`).
        """
        depth = self._moving_depth()
        link, walked, path = base, 0, []
        while True:
            winners, longest = self._longest_branches(link, walked, depth)
            if not winners:
                return self._explain(base, path, link)
            if len(winners) > 1:
                tips = sorted(set(t for j in winners for t in self._deepest_tips(j, walked + 1,
                                                                                 depth)))
                raise URDFError(f'the tree below {base!r} has several longest moving branches '
                                f'from {link!r} (joints {sorted(j.name for j in winners)}, '
                                f'{longest} moving joints each), candidate tips {tips}; '
                                f'{TIP_HINT} to choose the chain; the other branches are '
                                'locked')
            path.append(winners[0])
            link, walked = winners[0].child, walked + 1

    def _explain(self, base, path, link):
        """Set :attr:`choice` for the chain ``path`` ending at ``link``; return the tool frame.

        Warns when the last joint looks like a gripper's or no rule names the tool frame.
        """
        tip, tool_why, doubtful = self._tool_frame(link)
        names = [joint.name for joint in path]
        joints = (f'{len(names)} joint(s), {names[0]!r} to {names[-1]!r}' if names else
                  'no moving joint')
        self.choice = (f'chain {base!r} -> {tip!r} chosen automatically: the longest moving '
                       f'path from {base!r} ({joints}), ending at {link!r} because '
                       f'{self._end_reason(link)}; tool frame {tip!r}: {tool_why}; '
                       f'{TIP_HINT} to choose another')
        last = path[-1] if len(path) > 1 else None
        if last is not None and any(word in f'{last.name} {last.child}'.lower()
                                    for word in GRIPPER_WORDS):
            warn(f'the automatic chain ends with joint {last.name!r}, named like a gripper\'s: '
                 f'the model has {len(path)} joints with it as the last; if the arm ends '
                 f'before it, pass tip_link={last.parent!r} (--tip-link {last.parent}) and it '
                 'is locked')
        if doubtful:
            warn(f'tool frame {tip!r}: {tool_why}; {TIP_HINT} to put it elsewhere')
        return tip

    def _end_reason(self, link):
        """Why the automatic chain ends at ``link`` (a phrase)."""
        chainable = _candidates(self.rigid_body(link)[1])
        if not chainable:
            return 'no moving joint is below it'
        if len(chainable) == 1:
            return (f'its next joint {chainable[0].name!r} is a <mimic> with no other moving '
                    'joint below it (locked)')
        names = sorted(j.name for j in chainable)
        return (f'its moving branches ({", ".join(map(repr, names[:6]))}) tie '
                'and are shorter than the chain: an end effector, locked')

    def _longest_branches(self, link, walked, depth):
        """Return the moving joints leaving ``link``'s rigid body the chain may follow; length.

        Empty when the chain ends here: no moving joint, a lone mimic joint, or tied branches
        shorter than the ``walked`` chain (an end effector).
        """
        _, exits = self.rigid_body(link)
        if len(exits) == 1 and exits[0].type in CHAIN_TYPES:       # the lines below, at once
            winners, longest = [exits[0]], 1 + depth[exits[0].child]
        else:
            ranked = [(1 + depth[j.child], j) for j in _candidates(exits)]
            longest = max((d for d, _ in ranked), default=0)
            winners = [j for d, j in ranked if d == longest]
        if len(winners) == 1 and _mimics(winners[0]) and not self._drives_below(winners[0]):
            return [], longest
        if len(winners) > 1 and longest < walked:
            return [], longest
        return winners, longest

    def _drives_below(self, joint):
        """Tell whether a serial joint without ``<mimic>`` lies below ``joint``'s child."""
        if self._driven is None:                 # every link's answer, leaves first, once
            self._driven = {}
            for link in reversed(self.order):
                self._driven[link] = any(
                    below.type in SERIAL and not _mimics(below) or self._driven[below.child]
                    for below in self.children[link])
        return self._driven[joint.child]

    def _moving_depth(self):
        """Longest number of serial moving joints below each link.

        Fixed, floating and planar joints count 0 (off the chain the last two are held at their
        origin).
        """
        depth = {}
        for link in reversed(self.order):
            best = 0
            for joint in self.children[link]:
                if joint.type in SERIAL:
                    best = max(best, 1 + depth[joint.child])
                else:
                    best = max(best, depth[joint.child])
            depth[link] = best
        return depth

    def _deepest_tips(self, joint, walked, depth):
        """Tool frames at the ends of the longest moving paths starting with ``joint``."""
        tips, stack = [], [(joint.child, walked)]
        while stack:
            link, walked = stack.pop()
            winners, _ = self._longest_branches(link, walked, depth)
            if not winners:
                tips.append(self.tool_frame(link))
            stack.extend((j.child, walked + 1) for j in winners)
        return tips

    def tool_frame(self, link):
        """Return the tool frame on the rigid body of the last moving link ``link``."""
        return self._tool_frame(link)[0]

    def _tool_frame(self, link):
        """Return the tool frame of :meth:`tool_frame`, why (a phrase), and if it is doubtful."""
        poses, _ = self.rigid_body(link)
        fixed_children = {name: [j for j in self.children[name] if not j.moving]
                          for name in poses}
        end = link
        while len(fixed_children[end]) == 1:
            end = fixed_children[end][0].child
        if not fixed_children[end]:              # one path of fixed links: its end
            return end, ('the end of the fixed links below it' if end != link else
                         'the last moving link, no fixed link below it'), False
        depth = {link: 0}
        for name in poses:                       # depth-first: parents come first
            for joint in fixed_children[name]:
                depth[joint.child] = depth[name] + 1
        named = [(-depth[name], rank, name) for name in poses
                 for rank in [_tool_rank(name)] if rank is not None]
        if named:
            return min(named)[2], 'named like a tool frame, where the fixed links branch', False
        branches = ', '.join(repr(j.child) for j in fixed_children[end][:6])
        return link, (f'the last moving link itself: the fixed links below it branch (at '
                      f'{end!r}: {branches}) and none is named like a tool frame '
                      f'({", ".join(TOOL_NAMES)}; or one of them + _link or _frame)'), True


def _candidates(exits):
    """Return the moving joints the chain may follow: serial ones, else floating and planar ones.

    A floating or planar joint beside a serial one (a free object hung from a link) is locked
    at its origin and never takes the chain; alone, it is followed and refused with its hint.
    """
    serial = [joint for joint in exits if joint.type in SERIAL]
    return serial or [joint for joint in exits if joint.type in CHAIN_TYPES]


def _mimics(joint):
    return joint.element.find('mimic') is not None


def _tool_rank(name):
    lowered = name.lower()
    bare = lowered.rsplit('_', 1)[0] if lowered.endswith(('_link', '_frame')) else None
    for rank, tool in enumerate(TOOL_NAMES):
        if lowered == tool or lowered.endswith('_' + tool) or bare == tool:
            return rank
    return None
