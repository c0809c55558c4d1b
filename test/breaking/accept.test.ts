/**
 * Intentional breaks: `// idlrpc:accept` directives in the new file and `-accept` acceptances.
 */
import { describe, expect, test } from 'vitest';
import { acceptDirectives, acceptFlag } from '../../src/breaking/index.js';
import { compareTexts } from './compare-texts.js';

const before = 'namespace shop\n\ninterface A {\n    f(a int) int\n    g() int\n}\n';
const changed = (extra = '') => `namespace shop\n\ninterface A {\n    f(a int, b int) int\n}\n${extra}`;

describe('accepting a change', () => {
  test('a directive accepts the change it names, also a removal, and the check passes', () => {
    const report = compareTexts(before, changed('\n// idlrpc:accept param-added A.f.b\n// idlrpc:accept method-removed A.g\n'));
    expect(report.failures).toEqual([]);
    expect(report.changes.map((c) => [c.rule, c.acceptedBy])).toEqual([
      ['param-added', { file: 'api.idl', line: 7, column: 4 }],
      ['method-removed', { file: 'api.idl', line: 8, column: 4 }],
    ]);
  });

  test('a directive for another name accepts nothing', () => {
    const report = compareTexts(before, changed('\n// idlrpc:accept param-added A.f.c\n'));
    expect(report.failures.map((c) => c.rule).sort()).toEqual(['method-removed', 'param-added']);
  });

  test('-accept with a rule alone accepts every change of that rule; with a name, that one', () => {
    const all = compareTexts(before, changed(), { accept: [acceptFlag('param-added'), acceptFlag('method-removed:A.g')] });
    expect(all.failures).toEqual([]);
    expect(all.changes.every((c) => c.acceptedBy === 'flag')).toBe(true);
    const other = compareTexts(before, changed(), { accept: [acceptFlag('method-removed:A.h')] });
    expect(other.failures.map((c) => c.rule).sort()).toEqual(['method-removed', 'param-added']);
  });

  test('an unknown rule in -accept is an error naming it', () => {
    expect(() => acceptFlag('no-such-rule:A')).toThrow("-accept no-such-rule:A: unknown rule 'no-such-rule'");
    expect(() => acceptFlag('param-added:')).toThrow('the name after');
  });
});

describe('reading directives', () => {
  test('in trailing comments, doc comments and after a blank line; never inside quotes', () => {
    const text = [
      'namespace shop',
      '// idlrpc:accept method-removed A.g',
      'errors {',
      '    1 E "not // idlrpc:accept error-removed X" // idlrpc:accept error-removed Y',
      '}',
      '',
      '  //idlrpc:accept   enum-removed    Z  ',
    ].join('\n');
    const { acceptances, problems } = acceptDirectives(text, 'api.idl');
    expect(problems).toEqual([]);
    expect(acceptances).toEqual([
      { rule: 'method-removed', subject: 'A.g', origin: { file: 'api.idl', line: 2, column: 4 } },
      { rule: 'error-removed', subject: 'Y', origin: { file: 'api.idl', line: 4, column: 51 } },
      { rule: 'enum-removed', subject: 'Z', origin: { file: 'api.idl', line: 7, column: 5 } },
    ]);
  });

  test('a malformed directive or an unknown rule is a problem with its place, not an acceptance', () => {
    const { acceptances, problems } = acceptDirectives('// idlrpc:accept method-removed\n// idlrpc:accept no-rule A\n', 'api.idl');
    expect(acceptances).toEqual([]);
    expect(problems).toEqual([
      {
        message: "write the directive as '// idlrpc:accept <rule-id> <qualified name>'",
        location: { file: 'api.idl', line: 1, column: 4 },
      },
      {
        message: "unknown rule 'no-rule' in idlrpc:accept (the rules are listed in docs/breaking.md)",
        location: { file: 'api.idl', line: 2, column: 4 },
      },
    ]);
  });
});
