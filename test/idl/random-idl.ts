/**
 * Test helper: random valid IDL syntax trees for property tests, built the way the OpenAPI
 * converter builds trees (synthetic spans), with Unicode in comments and messages.
 */
import fc from 'fast-check';
import {
  RESERVED_WORDS,
  syntheticName,
  syntheticSpan,
  type Declaration,
  type EnumDecl,
  type ErrorDecl,
  type ErrorsBlock,
  type Field,
  type IdlFile,
  type InterfaceDecl,
  type Method,
  type NamespaceDecl,
  type StructDecl,
  type TypeRef,
} from '../../src/idl/index.js';

const FILE = 'random.idl';
type Gen = fc.GeneratorValue;

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const identifier = fc
  .tuple(fc.constantFrom(...LETTERS), fc.string({ unit: fc.constantFrom(...`${LETTERS}0123456789_`), maxLength: 10 }))
  .map(([first, rest]) => first + rest)
  .filter((name) => !RESERVED_WORDS.has(name));

/** Text without line breaks: any Unicode (astral too), quotes and backslashes. */
const lineText = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary-ascii', maxLength: 30 }))
  .map((text) => text.replace(/[\r\n]/g, ' '));

/** One element of `items`, chosen by the generator (only primitives go through `g`, which keeps it fast). */
function pick<T>(g: Gen, items: readonly T[]): T {
  return items[g(fc.nat, { max: items.length - 1 })];
}

/** A random subset of `items` in random order. */
function shuffledSubset<T>(g: Gen, items: readonly T[], keepAll = false): T[] {
  const pool = keepAll ? [...items] : items.filter(() => g(fc.boolean));
  for (let i = pool.length - 1; i > 0; i--) {
    const j = g(fc.nat, { max: i });
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool;
}

function comment(g: Gen): string | undefined {
  if (!g(fc.boolean)) return undefined;
  const lines = g(fc.array, lineText, { minLength: 1, maxLength: 3 });
  // A line starting with `@` would be a doc tag (or a note about an unknown one): doc-tags.test.ts covers those.
  return lines.map((line) => line.replace(/^(\s*)@/, '$1at ').trimEnd()).join('\n');
}

function withComment<T extends object>(node: T, text: string | undefined): T {
  return text === undefined ? node : { ...node, comment: text };
}

function uniqueNames(g: Gen, minLength: number, maxLength: number, taken: Set<string> = new Set()): string[] {
  const names = [...new Set(g(fc.array, identifier, { minLength, maxLength }))];
  const fresh = names.filter((name) => !taken.has(name));
  for (const name of fresh) taken.add(name);
  return fresh;
}

function randomType(g: Gen, named: string[], depth = 0): TypeRef {
  const span = syntheticSpan(FILE);
  const choice = g(fc.integer, { min: 0, max: depth > 2 ? 1 : 3 });
  if (choice === 0 || named.length === 0) {
    return { kind: 'builtIn', name: pick(g, ['string', 'int', 'float', 'bool'] as const), span };
  }
  if (choice === 1) return { kind: 'named', name: pick(g, named), span };
  if (choice === 2) return { kind: 'array', element: randomType(g, named, depth + 1), span };
  return { kind: 'map', value: randomType(g, named, depth + 1), span };
}

/** A random file that passes every check. */
export function randomIdlFile(g: Gen): IdlFile {
  const span = () => syntheticSpan(FILE);
  const name = (text: string) => syntheticName(text, FILE);
  const topNames = new Set<string>();
  const enumNames = uniqueNames(g, 0, 4, topNames);
  const structNames = uniqueNames(g, 0, 6, topNames);
  const interfaceNames = uniqueNames(g, 0, 3, topNames);
  const typeNames = [...enumNames, ...structNames];

  const enums: EnumDecl[] = enumNames.map((enumName) => {
    const values = uniqueNames(g, 1, 5).map((value) => withComment({ name: name(value), span: span() }, comment(g)));
    return withComment({ kind: 'enum', name: name(enumName), values, span: span() }, comment(g));
  });

  // A struct may extend or directly require only structs declared before it, so there is no cycle.
  const structs: StructDecl[] = [];
  const fieldNamesOf = new Map<string, Set<string>>();
  structNames.forEach((structName, index) => {
    const parent = index > 0 && g(fc.boolean) ? structNames[g(fc.integer, { min: 0, max: index - 1 })] : undefined;
    const taken = new Set(parent ? fieldNamesOf.get(parent) : []);
    const fields = uniqueNames(g, 0, 5, taken).map((fieldName): Field => {
      const type = randomType(g, typeNames);
      const later = type.kind === 'named' && structNames.indexOf(type.name) >= index;
      return withComment({ name: name(fieldName), type, optional: later || g(fc.boolean), span: span() }, comment(g));
    });
    fieldNamesOf.set(structName, taken);
    const struct: StructDecl = parent
      ? { kind: 'struct', name: name(structName), extends: name(parent), fields, span: span() }
      : { kind: 'struct', name: name(structName), fields, span: span() };
    structs.push(withComment(struct, comment(g)));
  });

  const errorNames = uniqueNames(g, 0, 5);
  const codes = new Set<number>();
  while (codes.size < errorNames.length) {
    codes.add(g(fc.boolean) ? g(fc.integer, { min: 1, max: 2_000_000_000 }) : g(fc.integer, { min: -1_000_000, max: -32769 }));
  }
  const codeList = [...codes];
  const errors: ErrorDecl[] = errorNames.map((errorName, i) =>
    withComment({ code: codeList[i], codeSpan: span(), name: name(errorName), message: g(() => lineText), span: span() }, comment(g)),
  );
  const split = g(fc.integer, { min: 0, max: errors.length });
  const errorBlocks: ErrorsBlock[] = [errors.slice(0, split), errors.slice(split)]
    .filter((list, i) => list.length > 0 || (i === 0 && g(fc.boolean)))
    .map((list) => withComment({ kind: 'errors', errors: list, span: span() }, comment(g)));

  const interfaces: InterfaceDecl[] = interfaceNames.map((interfaceName) => {
    const methods = uniqueNames(g, 0, 4).map((methodName): Method => {
      const parameters = uniqueNames(g, 0, 3).map((p) => ({ name: name(p), type: randomType(g, typeNames), span: span() }));
      const raises = shuffledSubset(g, errorNames);
      const returnOptional = g(fc.boolean);
      const method: Method = {
        name: name(methodName),
        parameters,
        returnType: randomType(g, typeNames),
        returnOptional,
        raises: raises.map(name),
        span: span(),
      };
      // A stream's items cannot be optional: some methods with a required return stream.
      if (!returnOptional && g(fc.boolean)) method.stream = span();
      return withComment(method, comment(g));
    });
    return withComment({ kind: 'interface', name: name(interfaceName), methods, span: span() }, comment(g));
  });

  const declarations: Declaration[] = shuffledSubset<Declaration>(g, [...enums, ...structs, ...errorBlocks, ...interfaces], true);
  const namespaceName = g(() => identifier);
  return {
    fileName: FILE,
    source: '',
    namespace: withComment<NamespaceDecl>({ kind: 'namespace', name: name(namespaceName), span: span() }, comment(g)),
    declarations,
  };
}
