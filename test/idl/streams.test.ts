/**
 * Stream methods in the language (docs/idl.md, "Streams"): `stream` before a return type, a
 * contextual word that is never reserved; the checker's refusal of optional items; the formatter,
 * the JSON form and the contract checksum.
 */
import { describe, expect, test } from 'vitest';
import {
  canonicalContractText,
  checkIdl,
  compileIdl,
  idlChecksum,
  isStreamMethod,
  parseIdl,
  printIdl,
  toIdlJson,
  tryCompileIdl,
} from '../../src/idl/index.js';
import { portabilityWarnings } from '../../src/idl/portability.js';
import { stripSpans } from './strip-spans.js';

const HEADER = `namespace shop

struct Order {
    id      string
    status  string
}

errors {
    1001 OrderNotFound "no such order"
}
`;

/** The methods of `interface Orders { <lines> }` after HEADER, parsed. */
function methodsOf(...lines: string[]) {
  const file = parseIdl(`${HEADER}\ninterface Orders {\n${lines.map((line) => `    ${line}\n`).join('')}}\n`, 'shop.idl');
  const iface = file.declarations.find((declaration) => declaration.kind === 'interface');
  if (iface?.kind !== 'interface') throw new Error('no interface');
  return iface.methods;
}

/** The errors of HEADER + `body` as "line:column code: message" (HEADER is 10 lines). */
function problems(body: string): string[] {
  return checkIdl(parseIdl(HEADER + body, 'shop.idl'))
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);
}

describe('parsing stream methods', () => {
  test('`stream T` makes a stream method of T items, with the span of the word', () => {
    const [watch] = methodsOf('watchOrder(orderId string) stream Order raises(OrderNotFound)');
    expect(isStreamMethod(watch)).toBe(true);
    expect(watch.returnType).toMatchObject({ kind: 'named', name: 'Order' });
    expect(watch.raises.map((name) => name.text)).toStrictEqual(['OrderNotFound']);
    expect(watch.stream).toMatchObject({ start: { line: 13, column: 32 }, end: { line: 13, column: 38 } });
  });

  test('a plain method has no `stream` member at all (trees without streams stay as they were)', () => {
    const [get] = methodsOf('get(orderId string) Order');
    expect(isStreamMethod(get)).toBe(false);
    expect('stream' in get).toBe(false);
  });

  test('containers, built-ins and attribute lists follow `stream`', () => {
    const [a, b, c] = methodsOf('a() stream []Order', 'b() stream map[string]int', 'c() stream int [min=1]');
    expect([a, b, c].map(isStreamMethod)).toStrictEqual([true, true, true]);
    expect(stripSpans(a.returnType)).toStrictEqual({ kind: 'array', element: { kind: 'named', name: 'Order' } });
    expect(c.returnAttributes?.map((attribute) => attribute.name.text)).toStrictEqual(['min']);
  });

  test('`stream` is not reserved: a type, a field, a parameter and a method may be named stream', () => {
    const model = compileIdl(
      [
        'namespace shop',
        'struct stream {',
        '    stream  string',
        '}',
        'interface Orders {',
        '    plain() stream',
        '    optional() stream [optional]',
        '    raising() stream raises(Gone)',
        '    streamed(stream stream) stream stream',
        '    stream() int',
        '}',
        'errors {',
        '    1 Gone "gone"',
        '}',
        '',
      ].join('\n'),
      'shop.idl',
    );
    const methods = model.interfaces[0].methods;
    expect(methods.map((method) => [method.name.text, isStreamMethod(method), stripSpans(method.returnType)])).toStrictEqual([
      ['plain', false, { kind: 'named', name: 'stream' }],
      ['optional', false, { kind: 'named', name: 'stream' }],
      ['raising', false, { kind: 'named', name: 'stream' }],
      ['streamed', true, { kind: 'named', name: 'stream' }],
      ['stream', false, { kind: 'builtIn', name: 'int' }],
    ]);
    expect(methods[1].returnOptional).toBe(true);
  });

  test('a word that only starts with stream is a type name', () => {
    const [method] = methodsOf('a() streamed');
    expect(isStreamMethod(method)).toBe(false);
    expect(method.returnType).toMatchObject({ kind: 'named', name: 'streamed' });
  });
});

describe('checking stream methods', () => {
  test('a plain [optional] item is refused at the item type', () => {
    expect(problems('interface Orders {\n    watch(id string) stream Order [optional]\n}\n')).toStrictEqual([
      "12:29 optional-stream-item: the items of stream method 'watch' cannot be optional: a stream sends only values (remove [optional], or return a struct with an optional field)",
    ]);
  });

  test('an optional item in a longer attribute list is refused at its flag', () => {
    expect(problems('interface Orders {\n    watch(id string) stream int [min=1, optional]\n}\n')).toStrictEqual([
      "12:41 optional-stream-item: the items of stream method 'watch' cannot be optional: a stream sends only values (remove [optional], or return a struct with an optional field)",
    ]);
  });

  test('an unknown type after `stream` is reported at that type', () => {
    expect(problems('interface Orders {\n    watch(id string) stream Ordr\n}\n')).toStrictEqual([
      "12:29 unknown-type: unknown type 'Ordr'; did you mean 'Order'?",
    ]);
  });

  test('`stream` alone, with no type of that name, says how to write a stream', () => {
    expect(problems('interface Orders {\n    watch(id string) stream\n}\n')).toStrictEqual([
      "12:22 unknown-type: unknown type 'stream': a stream method names the type of its items after it, as in 'stream Order'",
    ]);
  });
});

describe('printing stream methods', () => {
  test('the formatter keeps `stream`, the attribute list, raises and comments', () => {
    const source = `${HEADER}
interface Orders {
    // Watches an order.
    watchOrder(orderId string)   stream   Order [min=1]  raises(OrderNotFound) // live
    watchMany(
        // which ones
        ids []string
    ) stream []Order
}
`;
    const printed = printIdl(parseIdl(source, 'shop.idl'));
    expect(printed).toContain(
      '    // Watches an order.\n    watchOrder(orderId string) stream Order [min=1] raises(OrderNotFound) // live\n',
    );
    expect(printed).toContain('        // which ones\n        ids []string\n    ) stream []Order\n');
    expect(printIdl(parseIdl(printed, 'shop.idl'))).toBe(printed);
    expect(stripSpans(parseIdl(printed, 'shop.idl').declarations)).toStrictEqual(stripSpans(parseIdl(source, 'shop.idl').declarations));
  });

  test('a method returning a type named stream prints back as one', () => {
    const source = 'namespace shop\n\nstruct stream {\n}\n\ninterface Orders {\n    a() stream\n\n    b() stream stream\n}\n';
    expect(printIdl(parseIdl(source, 'shop.idl'))).toBe(source);
  });
});

describe('the JSON form and the checksum of stream methods', () => {
  const PLAIN = `${HEADER}\ninterface Orders {\n    watchOrder(orderId string) Order raises(OrderNotFound)\n}\n`;
  const STREAM = PLAIN.replace(') Order raises', ') stream Order raises');

  test('a stream method has `stream: true` and its item type as `returnType`', () => {
    const [method] = toIdlJson(compileIdl(STREAM, 'shop.idl')).interfaces![0].methods!;
    expect(method).toStrictEqual({
      name: 'watchOrder',
      parameters: [{ name: 'orderId', type: { builtIn: 'string' } }],
      returnType: { userDefined: 'Order' },
      stream: true,
      raises: ['OrderNotFound'],
    });
  });

  test('a plain method has no `stream` member', () => {
    const [method] = toIdlJson(compileIdl(PLAIN, 'shop.idl')).interfaces![0].methods!;
    expect('stream' in method).toBe(false);
  });

  test('the canonical text gains a `stream:true` line under `returns:` for a stream method only', () => {
    const plain = canonicalContractText(compileIdl(PLAIN, 'shop.idl'));
    const stream = canonicalContractText(compileIdl(STREAM, 'shop.idl'));
    expect(plain).not.toContain('stream');
    expect(stream).toBe(plain.replace('    returns:shop.Order\n', '    returns:shop.Order\n    stream:true\n'));
    expect(idlChecksum(compileIdl(STREAM, 'shop.idl'))).not.toBe(idlChecksum(compileIdl(PLAIN, 'shop.idl')));
  });

  test('an IDL without streams keeps the checksum it had before streams existed', () => {
    // Computed before the language had streams; must never change.
    expect(idlChecksum(compileIdl(PLAIN, 'shop.idl'))).toBe('XbZf6K19QRzfagESfyfmbpZ4-6Wv2eM4ElKmYY8nQUE');
  });

  test('a stream method survives imports (the linked model keeps it)', () => {
    const result = tryCompileIdl(STREAM, 'shop.idl');
    expect(result.model && isStreamMethod(result.model.interfaces[0].methods[0])).toBe(true);
  });
});

describe('-validate -portable: stream methods', () => {
  test('a located warning at the word `stream` of each stream method, none for a type named stream', () => {
    const source = `${HEADER}\nstruct stream {\n}\n\ninterface Orders {\n    watchOrder(orderId string) stream Order\n\n    plain() stream\n}\n`;
    const warnings = portabilityWarnings(compileIdl(source, 'shop.idl'));
    expect(warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.code} ${w.severity} ${w.length}: ${w.message}`)).toStrictEqual([
      "shop.idl:16:32 not-portable warning 6: stream method 'watchOrder' is a construct of this implementation only: the IDL family's other implementations cannot parse 'stream' before a return type",
    ]);
  });
});
