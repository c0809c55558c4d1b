/**
 * The line layout of generated Python (src/python/python-layout.ts): within 79 columns, a statement
 * breaks its last brackets one item a line; subscripts and comprehensions never get a comma that
 * would change their meaning; long strings split into adjacent literals; only what cannot be split
 * is excused with `# noqa: E501`.
 */
import { describe, expect, it } from 'vitest';
import { brackets, call, conditional, layout, paren, subscript, text } from '../../src/python/python-layout.js';
import { docstring } from '../../src/python/python-text.js';

const long = (stem: string) => `${stem}_${'x'.repeat(30)}`;

describe('python layout', () => {
  it('keeps a statement that fits on one line, optional brackets left out', () => {
    expect(layout(['from typing import ', brackets('(', ['Any', 'Optional'], ')', { optional: true })], '')).toEqual([
      'from typing import Any, Optional',
    ]);
    expect(layout(['return ', call('f', ['a', brackets('(', ['E'], ')', { commas: 'tuple' })])], '    ')).toEqual([
      '    return f(a, (E,))',
    ]);
  });

  it('breaks the last brackets one item a line, with a trailing comma, and nested ones when still too long', () => {
    expect(
      layout(['return ', call('_rt.read_field', ['fields', '"name"', 'path', call('g', [long('a'), long('b'), 'c'])])], '    '),
    ).toEqual([
      '    return _rt.read_field(',
      '        fields,',
      '        "name",',
      '        path,',
      '        g(',
      `            ${long('a')},`,
      `            ${long('b')},`,
      '            c,',
      '        ),',
      '    )',
    ]);
  });

  it('puts no comma after the last item of a subscript or a comprehension', () => {
    expect(
      layout([`${long('field')}: `, ['Optional', subscript([['dict', subscript(['str', long('Type')])]])], ' = None'], '    '),
    ).toEqual([`    ${long('field')}: Optional[`, `        dict[str, ${long('Type')}]`, '    ] = None']);
    expect(
      layout(['x = ', brackets('[', [call(long('write'), ['item0']), `for item0 in ${long('value')}`], ']', { commas: 'none' })], ''),
    ).toEqual(['x = [', `    ${long('write')}(item0)`, `    for item0 in ${long('value')}`, ']']);
  });

  it('parenthesizes a value only when breaking it does not fit otherwise, and a conditional before its else', () => {
    expect(layout([`"${long('k')}": `, paren(`value.${long('attribute')}`)], '    ', ',')).toEqual([
      `    "${long('k')}": (`,
      `        value.${long('attribute')}`,
      '    ),',
    ]);
    expect(layout([`"${long('k')}": `, paren(call('_write', [long('v')]))], '    ', ',')).toEqual([
      `    "${long('k')}": _write(`,
      `        ${long('v')},`,
      '    ),',
    ]);
    expect(layout(['x = ', conditional('None', `${long('n')} is None`, call('w', [long('n')]))], '')).toEqual([
      'x = (',
      `    None if ${long('n')} is None`,
      `    else w(${long('n')})`,
      ')',
    ]);
  });

  it('splits a long string at its spaces into adjacent literals, and excuses only a word too long for any line', () => {
    const message = 'the payment provider rejected the transaction for a reason it did not disclose, try again';
    const lines = layout(['DESCRIPTION: ClassVar[str] = ', text(message)], '    ');
    expect(lines[0]).toBe('    DESCRIPTION: ClassVar[str] = (');
    expect(lines.at(-1)).toBe('    )');
    expect(
      lines
        .slice(1, -1)
        .map((line) => JSON.parse(line.trim()))
        .join(''),
    ).toBe(message);
    expect(lines.every((line) => line.length <= 79)).toBe(true);
    const word = 'y'.repeat(90);
    expect(layout(['NAME = ', text(word)], '    ')).toEqual([`    NAME = "${word}"  # noqa: E501`]);
  });

  it('wraps a docstring at spaces, continuation of an Args entry indented, a long word whole', () => {
    const doc = docstring(
      [
        'A summary that is long enough to need a second line of its own, at this indentation.',
        '',
        'Args:',
        `    ${'p'.repeat(10)}: ${'word '.repeat(16).trim()}`,
        `${'z'.repeat(100)}`,
      ],
      '        ',
    );
    const lines = doc.trimEnd().split('\n');
    expect(lines).toEqual([
      '        """A summary that is long enough to need a second line of its own, at',
      '        this indentation.',
      '',
      '        Args:',
      `            pppppppppp: ${'word '.repeat(11).trim()}`,
      `                ${'word '.repeat(5).trim()}`,
      `        ${'z'.repeat(100)}`,
      '        """',
    ]);
  });
});
