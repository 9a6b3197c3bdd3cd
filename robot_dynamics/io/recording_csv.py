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
"""CSV recordings: the layouts written by hand, by spreadsheets, by pandas and by PlotJuggler.

A header row, then one row of numbers per sample (an empty cell is NaN; other columns, e.g. a
pandas index, are ignored):

- **time**, in seconds: a column ``t``, ``time``, ``timestamp`` or ``stamp`` (any case), or one
  with its unit in the name: ``time_s``, ``Time [s]``, ``t_ms``, ``stamp_ns``,
  ``timestamp (us)`` (converted to seconds); without a unit, times since 1970 in ms, us or
  ns are told from their size (1.7e18 is no number of seconds) and converted; or ISO 8601
  dates and times (``2026-12-06 17:44:37.123456``, as pandas writes a datetime index, named
  or not: seconds since 1970, UTC unless they name their zone) or clock readings
  (``17:44:37.123``: seconds since midnight). Several time columns that advance alike (a
  relative and an absolute time) are one: the first is used;
- per joint ``q_<joint>``/``position_<joint>``, ``tau_<joint>``/``effort_<joint>``/
  ``torque_<joint>`` and
  optionally ``qd_<joint>``/``velocity_<joint>`` (a joint without one of them, e.g. a gripper's
  position alone, is NaN there), in SI units or with the unit in brackets (``q_j1 [deg]``,
  ``qd_j1 (deg/s)``, ``tau_j1 [mNm]``: converted; ``tau_j1 [A]``, a current, is refused);
- ``rostopic echo -p`` (ROS 1): ``%time`` (the receive time, ns), ``field.header.stamp``
  (the stamp, used), ``field.name0``, ``field.position0``… (joints named by the name columns);
- **PlotJuggler**'s export: ``__time`` (the receive time), ``<topic>/<joint>/position``
  (``/velocity``, ``/effort``) and ``<topic>/header/stamp``, the time of a row of that topic
  when it has one (the message's stamp, as in a bag). Rows of other topics (no joint value at
  all) are no samples: dropped.

Separated by commas, or by semicolons or tabs when the header holds no comma (then a decimal
comma is read as a point: European spreadsheets), as a first line ``sep=;`` says, or by
spaces (``numpy.savetxt``); a separator ending every row but not the header is ignored;
``#`` starts a comment line, except one right before the first numbers (``numpy.savetxt``'s
``# t,q_a,tau_a``): the header; UTF-8, with or without a byte-order mark.
"""

import csv
import datetime
import io
import itertools
import re

import numpy as np

from robot_dynamics.io.recording_base import Recording, RecordingError
from robot_dynamics.io.recording_columns import BRACKETS, named_by_text, not_state
from robot_dynamics.io.recording_columns import columns_of as _columns

#: A time column's name, its unit optionally after ``_`` or in brackets.
_SECONDS = {None: 1.0, **dict.fromkeys(('s', 'sec', 'secs', 'second', 'seconds'), 1.0),
            **dict.fromkeys(('ms', 'msec', 'millis'), 1e-3),
            **dict.fromkeys(('us', 'µs', 'μs', 'usec', 'micros'), 1e-6),
            **dict.fromkeys(('ns', 'nsec', 'nanos'), 1e-9)}
_TIME = re.compile(r'(?:(?:field\.)?header[._]stamp|t|time|timestamp|stamp)(?:\s*[_\[(]\s*('
                   + '|'.join(sorted(filter(None, _SECONDS), key=len, reverse=True))
                   + r')\s*[\])]?)?', re.I)
_STAMP = '/header/stamp'
#: Cells that say a value is missing (R's NA, SQL's null, a dash): NaN, as an empty cell.
MISSING = ('', 'na', 'n/a', 'null', 'none', '-', '--')
#: A line that is blank or a comment.
_SKIPPED = re.compile(r'\s*(?:#|$)')


def read_csv(path):
    """Read a CSV recording (header row, see the module docstring)."""
    numbers, lines = _lines(path)
    given = re.fullmatch(r'"?sep=(.)"?\s*', lines[0]) if lines else None
    if given:                                      # Excel's separator line: sep=;
        numbers, lines = numbers[1:], lines[1:]
    delimiter = given[1] if given else _delimiter(lines[0] if lines else '')
    try:
        header = [h.strip() for h in next(_rows(lines[:1], delimiter))]
    except StopIteration:
        raise RecordingError(f'{path}: empty CSV; expected a header row t, q_*, tau_*') from None
    if len(lines) > 2 and _is_units_row(lines[1], len(header), delimiter):
        header = _with_units(header, next(_rows(lines[1:2], delimiter)))
        numbers, lines = [numbers[0]] + list(numbers[2:]), lines[:1] + lines[2:]
    if len(lines) < 2:
        raise RecordingError(f'{path}: expected rows of {len(header)} numbers like the header')
    data = _Numbers(numbers[1:], lines[1:], len(header), delimiter, path)
    columns, topics = _columns(header, path)
    names = list(columns['position'])
    if not names or not columns['effort']:
        unread = [h for h in header if not_state(h)]
        raise RecordingError(f'{path}: need q_<joint> and tau_<joint> columns for the same '
                             f'joints; found positions {_some(names)}, efforts '
                             f'{_some(list(columns["effort"]))}' + (
                                 f'; {_some(unread, 4)} are desired or external values, not '
                                 'the measured state: record the measured joint torques '
                                 '(Franka: tau_J)' if unread else ''))
    t = _time(header, data, topics, path)
    names += [name for name in columns['effort'] if name not in columns['position']]
    arrays = {key: _joint_columns(data, cols, names) for key, cols in columns.items()}
    names = named_by_text(header, data.texts, names, path)
    sample = np.zeros(len(t), dtype=bool)             # a row of another topic: no sample
    for values in arrays.values():
        if values is not None:
            sample |= np.isfinite(values).any(axis=1)
    arrays = {key: None if values is None or not np.isfinite(values).any() and
              key == 'velocity' else values[sample] for key, values in arrays.items()}
    return Recording(tuple(names), t[sample], arrays['position'], arrays['effort'],
                     arrays['velocity'], path)


class _Numbers:
    """The numbers of a CSV's columns, converted when first used (others may hold text).

    A file of numbers alone (every cell, as most are) is read at once by numpy's C reader
    (``numpy.loadtxt``, the same values as ``float``); any other, cell by cell with the
    ``csv`` module, which also says which line is wrong.
    """

    def __init__(self, numbers, lines, width, delimiter, path):
        """Read ``lines``, numbered ``numbers`` in the file, of ``width`` cells each."""
        self.numbers, self.path = numbers, path
        self.decimal_comma = delimiter != ','
        self.samples = len(lines)
        self.table = _table(lines, width, delimiter)
        if self.table is None:
            last = numbers[-1]
            self.rows = [row if len(row) == width else _fields(row, number, width, path,
                                                               number == last)
                         for number, row in zip(numbers, _rows(lines, delimiter))]
            self.columns = list(zip(*self.rows))

    def __getitem__(self, column):
        """Return column ``column`` as floats (an empty cell: NaN), or say what is wrong."""
        if self.table is not None:
            return self.table[:, column].copy()
        texts = self.columns[column]
        if self.decimal_comma:
            texts = [text.replace(',', '.') for text in texts]
        try:
            return np.fromiter(map(float, texts), float, self.samples)   # every cell a number
        except ValueError:
            return self._convert(column, _float)         # empty cells, or say which is wrong

    def texts(self, column):
        """Return the cells of ``column`` as text (a file of numbers alone: as numbers)."""
        return self.columns[column] if self.table is None else self.table[:, column].astype(str)

    def starts_with_number(self, column):
        """Return whether the first row's cell of ``column`` is a number (or empty)."""
        if self.table is not None:
            return True
        first = self.rows[0][column].strip()
        return not first or _float(first, self.decimal_comma) is not None

    def times(self, column):
        """Return a time column in seconds: numbers, or ISO 8601 dates and clock readings.

        ``2026-12-06 17:44:37.123456`` (pandas' ``to_csv`` of a datetime index) is seconds
        since 1970 (UTC unless it names its zone); ``17:44:37.123`` seconds since midnight, a
        day added at each midnight passed (a step back of over 12 h).
        """
        if self.starts_with_number(column):
            return self[column]
        values = self._convert(column, _clock)
        if np.nanmax(values, initial=0.0) < _DAY:             # clock readings alone
            values[1:] += _DAY * np.cumsum(np.diff(values) < -_DAY / 2)
        return values

    def _convert(self, column, convert):
        values = np.empty(self.samples)
        for r, row in enumerate(self.rows):
            text = row[column].strip()
            value = np.nan if text.lower() in MISSING else convert(text, self.decimal_comma)
            if value is None:
                raise RecordingError(f'{self.path}: line {self.numbers[r]}: non-numeric value '
                                     f'{text[:40]!r}; every row after the header must hold '
                                     'numbers in the time and joint columns')
            values[r] = value
        return values


def _is_units_row(line, width, delimiter):
    """Return whether ``line``, after the header, names units: text cells, none a number or date.

    Loggers (LabVIEW, motion-capture and drive tools) write ``s; rad; rad; Nm``, or ``[s]``.
    """
    cells = [cell.strip() for cell in next(_rows([line], delimiter), [])]
    filled = [cell for cell in cells if cell]
    return len(cells) == width and bool(filled) and all(
        len(cell) <= 12 and _float(cell, delimiter != ',') is None
        and _clock(cell, delimiter != ',') is None for cell in filled)


def _with_units(header, units):
    """Return ``header`` with each column's unit from a units row in brackets (``q_j1 [deg]``).

    A time column keeps its name when the unit is none of s, ms, us, ns (a date's format).
    """
    named = []
    for h, unit in zip(header, units):
        unit = unit.strip().strip('[]()').strip()
        keep = unit.lower() in MISSING or BRACKETS.fullmatch(h) or (
            _TIME.fullmatch(h) and unit.lower() not in _SECONDS)
        named.append(h if keep else f'{h} [{unit}]')
    return named


def _rows(lines, delimiter):
    """Return a ``csv`` reader of ``lines``."""
    return csv.reader(lines, delimiter=delimiter, skipinitialspace=delimiter == ' ')


def _table(lines, width, delimiter):
    """Return ``lines`` as an (N, ``width``) array when every cell is a number, else None.

    A decimal comma is read as a point where the separator is not a comma; separating spaces
    may be several (``csv``'s ``skipinitialspace``); an empty cell is NaN (PlotJuggler's rows
    of another topic, a gap).
    """
    if delimiter != ',':
        lines = [line.replace(',', '.') for line in lines]
    table = _loaded(lines, delimiter)
    if table is None and delimiter != ' ':
        table = _loaded(io.StringIO(_filled(lines, delimiter)), delimiter)
    return table if table is not None and table.shape == (len(lines), width) else None


def _loaded(lines, delimiter):
    """Return ``numpy.loadtxt`` of ``lines`` (floats), or None if one is no number."""
    try:
        return np.loadtxt(lines, delimiter=None if delimiter == ' ' else delimiter,
                          comments=None, quotechar='"', ndmin=2)
    except ValueError:                   # an empty cell, text, a row of another width
        return None


def _filled(lines, delimiter):
    """Return ``lines`` as one text with ``nan`` in each empty cell (``1,,2``, ``,2``, ``2,``)."""
    text = '\n' + ''.join(lines)
    empty = [(delimiter * 2, delimiter + 'nan' + delimiter)] * 2   # 1,,,2: 1,nan,,2, then
    for end in ('\n', '\r'):                                      # 1,nan,nan,2
        empty += [(end + delimiter, end + 'nan' + delimiter),
                  (delimiter + end, delimiter + 'nan' + end)]
    for cell, filled in empty:
        if cell in text:                 # a search costs a tenth of a replacement
            text = text.replace(cell, filled)
    return text[1:] + ('nan' if text.endswith(delimiter) else '')


def _float(text, decimal_comma):
    """Return ``text`` as a float (a decimal comma read where the separator is not one)."""
    try:
        return float(text.replace(',', '.') if decimal_comma else text)
    except ValueError:
        return None


def _clock(text, decimal_comma):
    """Return an ISO 8601 date and time as seconds since 1970 (UTC unless it says), or None."""
    text = iso_for_python310(text.replace(',', '.') if decimal_comma else text)
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        try:
            clock = datetime.time.fromisoformat(text)
        except ValueError:
            return None
        return (clock.hour * 60 + clock.minute) * 60 + clock.second + 1e-6 * clock.microsecond
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


_DAY = 86400.0
#: An ISO 8601 time: the seconds, their fraction (any digits), the zone (Z, +01, +0100, +01:00).
_ISO = re.compile(r'(.*\d\d:\d\d:\d\d)(?:[.,](\d+))?\s*(Z|[+-]\d\d(?::?\d\d)?)?', re.I)


def iso_for_python310(text):
    """Return an ISO 8601 time as Python 3.10's ``fromisoformat`` reads it (3.11 reads more).

    Six digits of fraction (pandas writes nanoseconds: 9) and a zone ``+HH:MM`` (``Z`` is UTC).
    """
    found = _ISO.fullmatch(text)
    if not found:
        return text
    zone = (found[3] or '').upper().replace(':', '')
    zone = '+00:00' if zone == 'Z' else f'{zone[:3]}:{zone[3:5] or "00"}' if zone else ''
    return f'{found[1]}.{(found[2] or "")[:6].ljust(6, "0")}{zone}'


def _lines(path):
    """Return the numbers (from 1) and the text of the lines neither blank nor comments.

    A comment right before numbers is the header (``numpy.savetxt(header=...)`` writes
    ``# t,q_a,tau_a``) when the first line after it is numbers.
    """
    try:
        with open(path, newline='', encoding='utf-8-sig') as handle:      # BOM or not
            lines = handle.readlines()
    except UnicodeDecodeError as exc:
        raise RecordingError(f'{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); '
                             'save the CSV as UTF-8') from None
    skipped = set(itertools.compress(itertools.count(), map(_SKIPPED.match, lines)))
    kept = [k for k in range(len(lines)) if k not in skipped] if skipped else \
        range(len(lines))                       # the usual file: every line, none copied
    before = [k for k in skipped if kept and k < kept[0] and lines[k].strip()]
    if before:
        comment = lines[max(before)].lstrip()[1:].lstrip()
        delimiter = _delimiter(comment)
        cells = next(csv.reader([lines[kept[0]]], delimiter=delimiter,
                                skipinitialspace=delimiter == ' '), [''])
        if cells and _float(cells[0].strip(), delimiter != ',') is not None:
            lines[max(before)] = comment
            kept = [max(before)] + list(kept)
    if isinstance(kept, range):
        return range(1, len(lines) + 1), lines
    return [k + 1 for k in kept], [lines[k] for k in kept]


def _time(header, data, topics, path):
    """Return the time column in seconds (a named unit converted; PlotJuggler's stamps).

    Several time columns are one time when they advance alike (a relative and an absolute
    time); otherwise which one is meant cannot be told.
    """
    named = [(h, _seconds(data.times(k), _TIME.fullmatch(h)[1]))
             for k, h in enumerate(header) if _TIME.fullmatch(h)]
    if any(not np.allclose(np.diff(t), np.diff(named[0][1]), rtol=0, atol=1e-6,
                           equal_nan=True) for _, t in named[1:]):
        raise RecordingError(f'{path}: 1 quantities given more than once (time in columns '
                             f'{", ".join(h[:60] for h, _ in named[:4])}); which one is meant '
                             'cannot be told: keep one column each')
    if named:
        return named[0][1]
    receipt = next((h for h in ('__time', '%time') if h in header), None)   # PlotJuggler's,
    received = data[header.index(receipt)] if receipt else None              # rostopic's
    stamps = [data[k] for k, h in enumerate(header)
              if h.endswith(_STAMP) and h[:-len(_STAMP)] in topics]
    if stamps or received is not None:          # each topic's row: its stamp, else __time
        t = received if received is not None else np.full(data.samples, np.nan)
        for stamp in stamps:
            t = np.where(stamp > 0, stamp, t)
        return t
    if header[0] == '' and not data.starts_with_number(0):
        return data.times(0)                        # pandas' unnamed index of datetimes
    stamp = _stamp_columns(header)
    if stamp:                            # a bag-to-CSV tool's header.stamp.sec and .nanosec
        return data[stamp[0]] + 1e-9 * data[stamp[1]]
    raise RecordingError(f'{path}: no time column; name the first column t (seconds; or '
                         'time_ns, time_ms with the unit); found columns '
                         f'{[h[:40] for h in header[:8]]}')


#: The seconds of a ``builtin_interfaces/Time`` (``header.stamp.sec``; ROS 1: ``secs``).
_SEC = re.compile(r'(.*stamp[._/]?)(secs?)', re.I)


def _stamp_columns(header):
    """Return the columns of a stamp's seconds and nanoseconds (``…stamp.nanosec``), or None."""
    for k, h in enumerate(header):
        found = _SEC.fullmatch(h)
        nano = found and found[1] + ('nanosec' if found[2].lower() == 'sec' else 'nsecs')
        if nano and nano.lower() in (g.lower() for g in header):
            return k, [g.lower() for g in header].index(nano.lower())
    return None


#: Times since 1970 in ms, us, ns (from 1973, 1973, 2001 on): no time in seconds is that large.
_EPOCH_UNITS = ((1e17, 1e-9), (1e14, 1e-6), (1e11, 1e-3))


def _seconds(values, unit):
    """Return a time column in seconds: its named unit, or a unit its size since 1970 gives."""
    if unit:
        return values * _SECONDS[unit.lower()]
    size = np.nanmedian(np.abs(values)) if np.isfinite(values).any() else 0.0
    return values * next((scale for least, scale in _EPOCH_UNITS if size >= least), 1.0)


def _fields(row, number, width, path, last):
    """Return the fields of CSV ``row`` on line ``number``, or say why the count is wrong."""
    if len(row) > width and not any(x.strip() for x in row[width:]):
        row = row[:width]                   # a separator ending the row (not the header)
    if len(row) != width:
        cut = ' (the last line: the file looks truncated; delete that line)' if last else ''
        raise RecordingError(f'{path}: line {number} has {len(row)} fields, the header '
                             f'{width}{cut}; every row must hold one number per column')
    return row


def _joint_columns(data, columns, names):
    """Return the (N, m) values of ``names`` (NaN where a joint has no column), or None.

    A joint may have a position column and no effort (a gripper logged beside the arm): only
    the model's joints must have both (:func:`~robot_dynamics.identification.prepare` names
    a model joint whose column is missing).
    """
    if not columns:
        return None
    values = np.full((data.samples, len(names)), np.nan)
    for j, name in enumerate(names):
        if name in columns:
            column, scale = columns[name]
            values[:, j] = data[column] * scale
    return values


def _delimiter(header):
    """Return the CSV header's separator: ``,``, else ``;``, a tab or spaces (``savetxt``)."""
    if ',' not in header:
        for separator in (';', '\t', ' '):
            if separator in header.strip():
                return separator
    return ','


def _some(names, shown=10):
    """``names`` as a list of at most ``shown`` (each cut to 40 characters) and the count."""
    listed = [name[:40] for name in names[:shown]]
    return f'{listed} and {len(names) - shown} more' if len(names) > shown else str(listed)


def write_csv(path, recording):
    """Write a Recording as CSV: ``t, q_*, [qd_*,] tau_*``."""
    names = recording.joint_names
    blocks = [('q_', recording.position)]
    if recording.velocity is not None:
        blocks.append(('qd_', recording.velocity))
    blocks.append(('tau_', recording.effort))
    header = ['t'] + [prefix + name for prefix, _ in blocks for name in names]
    data = np.column_stack([recording.t] + [array for _, array in blocks])
    with open(path, 'w', newline='') as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(data.tolist())
    return path
