import { describe, expect, it } from 'vitest';
import { resolveBuiltInTypes } from '../../src/idl/built-in-types.js';
import { compileIdl, tryCompileIdl } from '../../src/idl/compile.js';
import { printIdl } from '../../src/idl/format.js';
import { canonicalContractText, toIdlJson } from '../../src/idl/json.js';
import { parseIdl } from '../../src/idl/parser.js';

const ALL_FOUR = `namespace shop

struct Upload {
    at           timestamp
    day          date             [optional]
    content      []bytes
    extra        map[string]json
}

interface Files {
    put(upload Upload, when timestamp) json

    get(day date) bytes [optional]
}
`;

describe('built-in types timestamp, date, bytes and json', () => {
  it('are built-in types where a type goes, in fields, parameters, results, arrays and maps', () => {
    const json = toIdlJson(compileIdl(ALL_FOUR, 'shop.idl'));
    expect(json.structs?.[0].fields?.map((field) => field.type)).toEqual([
      { builtIn: 'timestamp' },
      { builtIn: 'date' },
      { array: { builtIn: 'bytes' } },
      { mapValue: { builtIn: 'json' } },
    ]);
    const [put, get] = json.interfaces?.[0].methods ?? [];
    expect(put.parameters?.[1].type).toEqual({ builtIn: 'timestamp' });
    expect(put.returnType).toEqual({ builtIn: 'json' });
    expect(get.parameters?.[0].type).toEqual({ builtIn: 'date' });
    expect(get.returnType).toEqual({ builtIn: 'bytes' });
  });

  it('stay legal as names of fields, parameters, methods and types (none is a reserved word)', () => {
    const model = compileIdl(
      `namespace n
struct timestamp {
  date string
  bytes int
}
interface I {
  json(date int, timestamp timestamp) string
}
`,
      'n.idl',
    );
    const json = toIdlJson(model);
    expect(json.structs?.[0].fields?.map((field) => field.name)).toEqual(['date', 'bytes']);
    // The declared struct wins where it is in scope: the parameter's type is the struct.
    expect(json.interfaces?.[0].methods?.[0].parameters?.[1].type).toEqual({ userDefined: 'timestamp' });
    expect(canonicalContractText(model)).toContain('n.timestamp');
  });

  it('a declared type named like a built-in keeps its name in the JSON form and the checksum text', () => {
    const model = compileIdl(
      `namespace n
enum date {
  today
}
struct S {
  d date
  at timestamp
}
`,
      'n.idl',
    );
    const text = canonicalContractText(model);
    expect(toIdlJson(model).structs?.[0].fields?.map((field) => field.type)).toEqual([{ userDefined: 'date' }, { builtIn: 'timestamp' }]);
    expect(text).toContain('n.date');
    expect(text).toMatch(/\btimestamp\b/);
  });

  it('an imported namespace that declares `date` shadows it only in its own file', () => {
    const files = new Map([['common.idl', 'namespace common\nenum date {\n  today\n}\nstruct Stamp {\n  d date\n}\n']]);
    const host = { readFile: (name: string) => files.get(name.replace(/^.*\//, '')) };
    const result = tryCompileIdl('namespace main\nimport "common.idl"\nstruct S {\n  d date\n  c common.date\n}\n', 'main.idl', {
      host: host as never,
    });
    expect(result.diagnostics).toEqual([]);
    const json = toIdlJson(result.model!);
    const types = json.structs?.map((struct) => [struct.name, struct.fields?.map((field) => field.type)]);
    expect(types).toEqual([
      ['S', [{ builtIn: 'date' }, { userDefined: 'common.date' }]],
      ['common.Stamp', [{ userDefined: 'common.date' }]],
    ]);
  });

  it('the formatter prints them as written (this text is its canonical form)', () => {
    expect(printIdl(parseIdl(ALL_FOUR, 'shop.idl'))).toBe(ALL_FOUR);
  });

  it('resolution leaves a file without them as it is (same object)', () => {
    const file = parseIdl('namespace n\nstruct S {\n  a string\n}\n', 'n.idl');
    expect(resolveBuiltInTypes(file)).toBe(file);
  });

  it('a misspelt built-in is still an unknown type, located', () => {
    const result = tryCompileIdl('namespace n\nstruct S {\n  at timestmp\n}\n', 'n.idl');
    expect(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      "3:6 unknown type 'timestmp'; did you mean 'timestamp'?",
    ]);
  });
});
