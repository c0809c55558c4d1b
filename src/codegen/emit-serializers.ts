/**
 * The result serializers of the server (docs/protocol.md, "Results are written field by field"):
 * per type some method's result holds, a function writing a value of it as JSON text, its known
 * fields only and in IDL order, with no `eval` at run time; and the table `serializers` of every
 * method's, which `create<Ns>Server` hands to the runtime.
 *
 * Each function returns `undefined` when the value is not what the IDL says (the runtime then uses
 * `JSON.stringify`), found by cheap checks as it writes: `typeof`, objects, arrays. It says so with
 * a bare `return;`: these functions are most of the code an `extends` chain generates, and the
 * output must stay within a few dozen bytes per IDL byte (test/hostile/extends-chain.test.ts). It reads each
 * field once, honours `toJSON` as `JSON.stringify` does (called once, with the key, before the
 * value is written) and writes what `JSON.stringify` writes for each value: numbers as `'' + n`
 * (NaN and ±Infinity `null`), strings through the runtime's `jsonStringContent` (their quotes are in the literals around them), optional fields left
 * out when undefined, map keys in `Object.keys` order.
 *
 * Strings and enums, numbers and booleans are written inline; structs, arrays and maps by a
 * function each (recursive structs call themselves). A struct that extends another writes the
 * parent's fields with `jsonFields_<Parent>`, so each struct's code is as large as its own fields,
 * however long an `extends` chain is.
 */
import type { IdlJson, IdlJsonMethod, IdlJsonStruct, IdlJsonType } from '../../runtime/idl-json.js';
import type { Declaration, Use } from './declarations.js';
import { CodegenError, uniqueName, type TypeScriptNames } from './names.js';
import { docComment, propertyKey, stringLiteral } from './source-text.js';
import { keepPrinted } from './print.js';
import { CallRecorder, type RecordedCall } from './call-recorder.js';

/**
 * The built-in types written as JSON strings. A timestamp's `Date` and bytes' `Uint8Array` are made
 * strings before a result is written (runtime/wire-conversion.ts), so the serializers see strings.
 */
const WIRE_STRINGS: ReadonlySet<string> = new Set(['string', 'timestamp', 'date', 'bytes']);

/** What every serializer function may call. */
const RUNTIME_USES: Use[] = [{ from: 'runtime', name: 'jsonStringContent', typeOnly: false }];

/** What a serializer function is declared with (TypeScript: the value is checked as it is written). */
const PARAMETERS = [
  { name: 'value', type: 'any' },
  { name: 'key', type: 'string | number', optional: true },
] as const;

/** The first statement of every function of an object type: `toJSON` first, as JSON.stringify does. */
const CALL_TO_JSON =
  "if (typeof value === 'object' && value !== null && typeof value.toJSON === 'function') value = value.toJSON(key === undefined ? '' : '' + key);";

/** The serializer declarations of a server and the name of their table. */
export interface SerializerDeclarations {
  declarations: Declaration[];
  /** The name of the `SerializerTable` constant. */
  table: string;
}

/** A type form as the IDL JSON writes it, for keys of maps of generated functions. */
function typeKey(type: IdlJsonType): string {
  return JSON.stringify(type);
}

/** `[]Product` -> `Product_array`, `map[string]int` -> `int_map`: a readable part of a function name. */
function typeLabel(type: IdlJsonType): string {
  if ('builtIn' in type) return type.builtIn;
  if ('array' in type) return `${typeLabel(type.array)}_array`;
  if ('mapValue' in type) return `${typeLabel(type.mapValue)}_map`;
  return type.userDefined.replaceAll('.', '_');
}

/** What the writer of a struct asks while it is generated (see STRUCT_WRITERS). */
type WriterCallKind = 'functionOf' | 'fieldWriterOf' | 'hasRequiredField' | 'isStringType' | 'declared' | 'fieldsShared' | 'knownType';

/** A call the writer of a struct made while it was generated, and its answer. */
type WriterCall = RecordedCall<WriterCallKind, IdlJsonType | string>;

/**
 * The latest writer function generated for each struct object of the IDL JSON: a dev server
 * regenerating an edited file gets the unchanged structs as the same objects (interned-idl-json.ts).
 * The calls its generation made are made again in order, as generating it would; when each answers
 * as it did, the function is the same.
 */
const STRUCT_WRITERS = new WeakMap<IdlJsonStruct, { name: string; calls: readonly WriterCall[]; declaration: Declaration }>();

/** How many struct writers were taken from STRUCT_WRITERS, and how many made to be remembered (tests read it). */
export const writerMemoStats = { reused: 0, remembered: 0 };

/**
 * Builds the serializers of `idl`'s methods. `idl` is the served IDL JSON (every interface of the
 * program); `taken` holds every name of the module and receives the ones made up here. What it
 * reads (but the names) is what `serializersKey` (phase-keys.ts) writes down: a new read belongs there too.
 * `remember`: the module is generated again and again, and its struct writers are remembered for the next time.
 */
export function serializerDeclarations(idl: IdlJson, names: TypeScriptNames, taken: Set<string>, remember = false): SerializerDeclarations {
  const structs = new Map((idl.structs ?? []).map((struct) => [struct.name, struct] as const));
  const enums = new Set((idl.enums ?? []).map((e) => e.name));
  const unions = new Map((idl.unions ?? []).map((union) => [union.name, union] as const));
  const declarations: Declaration[] = [];
  /** Functions by type key (structs, arrays, maps), and the parents' field writers by struct name. */
  const functionNames = new Map<string, string>();
  const fieldWriters = new Map<string, string>();
  const pending: (() => void)[] = [];
  /** The calls of a struct's writer generated to be remembered (see STRUCT_WRITERS). */
  const recorder = new CallRecorder<WriterCallKind, IdlJsonType | string>();
  const shared = <T extends string | boolean>(kind: WriterCallKind, argument: IdlJsonType | string, compute: () => T): T =>
    recorder.shared(kind, argument, compute);

  const isStruct = (type: IdlJsonType): type is { userDefined: string } => 'userDefined' in type && structs.has(type.userDefined);
  const structOf = (name: string): IdlJsonStruct => {
    const struct = structs.get(name);
    if (struct === undefined) throw new CodegenError(`serializers: unknown struct ${name}`);
    return struct;
  };

  /** The function writing `type` (a struct, array or map), declared on first use. */
  const functionOf = (type: IdlJsonType): string => shared('functionOf', type, () => claimFunction(type));
  const claimFunction = (type: IdlJsonType): string => {
    const key = typeKey(type);
    let name = functionNames.get(key);
    if (name !== undefined) return name;
    name = uniqueName(`json_${typeLabel(type)}`, taken);
    functionNames.set(key, name);
    const declared = name;
    // Declared after the current one is done: a work list, not recursion (types nest deeply).
    pending.push(() =>
      declarations.push(isStruct(type) && remember ? rememberedWriter(declared, type) : functionDeclaration(declared, type)),
    );
    return name;
  };

  /** What `call` answers now (made again, with what it does). */
  const answerNow = ({ kind, argument }: WriterCall): string | boolean => {
    switch (kind) {
      case 'functionOf':
        return functionOf(argument as IdlJsonType);
      case 'isStringType':
        return isStringType(argument as IdlJsonType);
      case 'fieldWriterOf':
        return fieldWriterOf(argument as string);
      case 'hasRequiredField':
        return hasRequiredField(argument as string);
      case 'declared':
        return names.declared(argument as string);
      case 'fieldsShared':
        return fieldWriters.get(argument as string) ?? '';
      case 'knownType':
        return structs.has(argument as string) || unions.has(argument as string);
    }
  };

  /** Makes `calls` again, in order; whether each answered as recorded. */
  const answersAsRecorded = (calls: readonly WriterCall[]): boolean => calls.every((call) => answerNow(call) === call.answer);

  /** The writer of a struct, as generated before when its calls answer as they did (STRUCT_WRITERS). */
  const rememberedWriter = (name: string, type: { userDefined: string }): Declaration => {
    const struct = structOf(type.userDefined);
    const record = STRUCT_WRITERS.get(struct);
    if (record && record.name === name && answersAsRecorded(record.calls)) {
      writerMemoStats.reused++;
      return record.declaration;
    }
    writerMemoStats.remembered++;
    const { value: declaration, calls } = recorder.record(() => functionDeclaration(name, type));
    STRUCT_WRITERS.set(struct, { name, calls, declaration });
    keepPrinted([declaration]);
    return declaration;
  };

  /** `jsonFields_<Name>`: the text of a struct's fields (its parents' first) after `{`, without `}`. */
  const fieldWriterOf = (structName: string): string => shared('fieldWriterOf', structName, () => claimFieldWriter(structName));
  const claimFieldWriter = (structName: string): string => {
    let name = fieldWriters.get(structName);
    if (name !== undefined) return name;
    name = uniqueName(`jsonFields_${structName.replaceAll('.', '_')}`, taken);
    fieldWriters.set(structName, name);
    const declared = name;
    pending.push(() => {
      const struct = structOf(structName);
      declarations.push({
        kind: 'function',
        part: 'server',
        name: declared,
        // No doc comment: there is one of these per struct of an extends chain, whose output must stay
        // small (test/hostile/extends-chain.test.ts); the documented json_ functions call them.
        doc: '',
        exported: false,
        uses: RUNTIME_USES,
        parameters: [{ name: 'value', type: 'any' }],
        returnType: 'string | undefined',
        body: lines([...fieldStatements(struct), ['return text;']]),
      });
    });
    return name;
  };

  /** Whether a struct or one of its parents has a required field (then its text is never `{` alone). */
  const requiredInChain = new Map<string, boolean>();
  const hasRequiredField = (structName: string): boolean => shared('hasRequiredField', structName, () => requiredInChainOf(structName));
  const requiredInChainOf = (structName: string): boolean => {
    // Up the chain to the first struct known (a loop: chains may be thousands long), then back down.
    const chain: IdlJsonStruct[] = [];
    for (let name: string | undefined = structName; name !== undefined && !requiredInChain.has(name); ) {
      const struct = structOf(name);
      chain.push(struct);
      name = struct.extends;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const struct = chain[i];
      const own = (struct.fields ?? []).some((field) => !field.optional);
      requiredInChain.set(struct.name, own || (struct.extends !== undefined && requiredInChain.get(struct.extends)!));
    }
    return requiredInChain.get(structName)!;
  };

  /**
   * Statements appending the JSON text of `value` (an expression read once, a plain name) to
   * `text`; `return undefined` when it is not a `type`. `before(suffix)` is the expression of what
   * goes before the value with `suffix` appended to its literal text ('' for nothing).
   *
   * A string's quotes go into the literals: `',"name":"' + content + '"'`, and with `leaveOpen`
   * the closing quote is left for the literal that follows (the caller's). Each piece a text is
   * concatenated from costs time again when it is flattened to be sent (docs/benchmarks.md).
   */
  const writeValue = (type: IdlJsonType, value: string, key: string, before: (suffix: string) => string, leaveOpen = false): string[] => {
    const then = (suffix: string) => {
      const prefix = before(suffix);
      return prefix === "''" ? '' : `${prefix} + `;
    };
    if (isStringType(type)) {
      const close = leaveOpen ? '' : " + '\"'";
      return [`if (typeof ${value} !== 'string') return;`, `text += ${then('"')}jsonStringContent(${value})${close};`];
    }
    if ('builtIn' in type) {
      switch (type.builtIn) {
        case 'int':
        case 'float':
          // What JSON.stringify writes: NaN and ±Infinity as null, -0 as 0 (so does '' + n).
          return [`if (typeof ${value} !== 'number') return;`, `text += ${then('')}(Number.isFinite(${value}) ? '' + ${value} : 'null');`];
        case 'bool':
          return [`if (typeof ${value} !== 'boolean') return;`, `text += ${then('')}(${value} ? 'true' : 'false');`];
        case 'json': {
          // Any JSON value, written as JSON.stringify writes it (`undefined`: not JSON, so not ours to write).
          const written = `${value}Text`;
          return [
            `const ${written} = JSON.stringify(${value});`,
            `if (${written} === undefined) return;`,
            `text += ${then('')}${written};`,
          ];
        }
      }
    }
    if (
      'userDefined' in type &&
      !shared('knownType', type.userDefined, () => structs.has(type.userDefined) || unions.has(type.userDefined))
    )
      throw new CodegenError(`serializers: unknown type ${type.userDefined}`);
    const written = `${value}Text`;
    return [
      `const ${written} = ${functionOf(type)}(${value}, ${key});`,
      `if (${written} === undefined) return;`,
      `text += ${then('')}${written};`,
    ];
  };

  /** Whether a value of `type` is written as a JSON string (a string or an enum). */
  const isStringType = (type: IdlJsonType): boolean =>
    shared(
      'isStringType',
      type,
      () => ('builtIn' in type && WIRE_STRINGS.has(type.builtIn)) || ('userDefined' in type && enums.has(type.userDefined)),
    );

  /**
   * The statements writing a struct's fields: `let text` starts as the parent's fields (or `{`),
   * then one block per own field. A comma goes before a field when something was written before
   * it: known when a required field comes earlier, else asked of `text`.
   */
  const fieldStatements = (struct: IdlJsonStruct): string[][] => {
    const statements: string[][] = [];
    let written: 'nothing' | 'maybe' | 'something';
    if (struct.extends !== undefined) {
      statements.push([`let text = ${fieldWriterOf(struct.extends)}(value);`, 'if (text === undefined) return;']);
      written = hasRequiredField(struct.extends) ? 'something' : 'maybe';
    } else {
      written = 'nothing';
    }
    const fields = struct.fields ?? [];
    // The brace goes into the first field's literal when that field is always written.
    const braceInFirst = struct.extends === undefined && fields.length > 0 && !fields[0].optional;
    if (struct.extends === undefined) statements.push([braceInFirst ? "let text = '';" : "let text = '{';"]);
    // A required string field followed by a required field leaves its closing quote to that field's literal.
    let quoteOpen = false;
    fields.forEach((field, index) => {
      const name = JSON.stringify(field.name);
      const opening = quoteOpen ? '"' : '';
      // The text before the value: a literal when it is known, else chosen at run time.
      const before = (value: string) =>
        written === 'nothing'
          ? stringLiteral(`${braceInFirst ? '{' : ''}${name}:${value}`)
          : written === 'something'
            ? stringLiteral(`${opening},${name}:${value}`)
            : `(text.length === 1 ? ${stringLiteral(`${name}:${value}`)} : ${stringLiteral(`,${name}:${value}`)})`;
      const next = fields[index + 1];
      const leaveOpen = !field.optional && isStringType(field.type) && next !== undefined && !next.optional;
      const variable = `f${index}`;
      const read = `const ${variable} = ${propertyRead('value', field.name)};`;
      const write = writeValue(field.type, variable, stringLiteral(field.name), before, leaveOpen);
      quoteOpen = leaveOpen;
      if (field.optional) {
        // Undefined is left out and null written, as JSON.stringify does.
        statements.push([
          read,
          `if (${variable} === null) text += ${before('null')};`,
          `else if (${variable} !== undefined) {`,
          ...write.map((line) => `  ${line}`),
          '}',
        ]);
        if (written === 'nothing') written = 'maybe';
      } else {
        statements.push([read, ...write]);
        written = 'something';
      }
    });
    return statements;
  };

  /** The function writing a struct, an array or a map. */
  const functionDeclaration = (name: string, type: IdlJsonType): Declaration => {
    let body: string[][];
    let what: string;
    const union = 'userDefined' in type ? unions.get(type.userDefined) : undefined;
    if (isStruct(type)) {
      const struct = structOf(type.userDefined);
      what = `\`${shared('declared', struct.name, () => names.declared(struct.name))}\` values`;
      const checks = [CALL_TO_JSON, "if (typeof value !== 'object' || value === null || Array.isArray(value)) return;"];
      // A struct whose fields another struct writes too shares their writer; else they are written here.
      const fieldsWriter = shared('fieldsShared', struct.name, () => fieldWriters.get(struct.name) ?? '');
      body =
        fieldsWriter !== ''
          ? [checks, [`const text = ${fieldsWriter}(value);`, "return text === undefined ? undefined : text + '}';"]]
          : [checks, ...fieldStatements(struct), ["return text + '}';"]];
    } else if (union !== undefined) {
      what = `\`${names.declared(union.name)}\` values`;
      body = [
        [CALL_TO_JSON, "if (typeof value !== 'object' || value === null || Array.isArray(value)) return;"],
        ...unionVariantStatements(
          union.discriminator,
          (union.variants ?? []).map((v) => ({ tag: v.tag, writer: functionOf({ userDefined: v.type }) })),
        ),
        ['return;'],
      ];
    } else if ('array' in type) {
      what = 'arrays';
      body = [
        [CALL_TO_JSON, 'if (!Array.isArray(value)) return;', "let text = '[';"],
        [
          'for (let i = 0; i < value.length; i++) {',
          '  const item = value[i];',
          ...writeValue(type.array, 'item', 'i', (suffix) => `(i === 0 ? ${stringLiteral(suffix)} : ${stringLiteral(`,${suffix}`)})`).map(
            (line) => `  ${line}`,
          ),
          '}',
        ],
        ["return text + ']';"],
      ];
    } else if ('mapValue' in type) {
      what = 'maps';
      body = [
        [CALL_TO_JSON, "if (typeof value !== 'object' || value === null || Array.isArray(value)) return;"],
        // Object.keys: the own enumerable string keys, in the order JSON.stringify writes them.
        ['const keys = Object.keys(value);', "let text = '{';"],
        [
          'for (let i = 0; i < keys.length; i++) {',
          '  const item = value[keys[i]];',
          ...writeValue(
            type.mapValue,
            'item',
            'keys[i]',
            (suffix) => `(i === 0 ? '"' : ',"') + jsonStringContent(keys[i]) + ${stringLiteral(`":${suffix}`)}`,
          ).map((line) => `  ${line}`),
          '}',
        ],
        ["return text + '}';"],
      ];
    } else {
      throw new CodegenError(`serializers: no function for ${typeKey(type)}`);
    }
    return {
      kind: 'function',
      part: 'server',
      name,
      doc: docComment(`Writes ${what} as JSON text, known fields only; undefined for a value of another type.`),
      exported: false,
      uses: RUNTIME_USES,
      parameters: PARAMETERS,
      returnType: 'string | undefined',
      body: lines(body),
    };
  };

  /**
   * The serializer of a method's result: the function of its type, or, for a bare value or an
   * `[optional]` result (null written as null), a function of its own.
   */
  const resultFunctions = new Map<string, string>();
  const resultSerializerOf = (method: IdlJsonMethod): string => {
    const type = method.returnType;
    const written = isStruct(type) || 'array' in type || 'mapValue' in type;
    if (written && !method.returnOptional) return functionOf(type);
    const key = `${typeKey(type)}${method.returnOptional ? '?' : ''}`;
    let name = resultFunctions.get(key);
    if (name !== undefined) return name;
    name = uniqueName(`json_${typeLabel(type)}${method.returnOptional ? '_or_null' : ''}_result`, taken);
    resultFunctions.set(key, name);
    const body: string[][] = [];
    if (written) body.push([`return value === null ? 'null' : ${functionOf(type)}(value);`]);
    else {
      if (method.returnOptional) body.push(["if (value === null) return 'null';"]);
      body.push(["let text = '';", ...writeValue(type, 'value', "''", (suffix) => stringLiteral(suffix))], ['return text;']);
    }
    declarations.push({
      kind: 'function',
      part: 'server',
      name,
      doc: docComment(`Writes a \`${resultLabel(type, names)}${method.returnOptional ? ' [optional]' : ''}\` result as JSON text.`),
      exported: false,
      uses: RUNTIME_USES,
      parameters: [{ name: 'value', type: 'any' }],
      returnType: 'string | undefined',
      body: lines(body),
    });
    return name;
  };

  const entries: string[] = [];
  for (const iface of idl.interfaces ?? []) {
    for (const method of iface.methods ?? []) {
      entries.push(`  ${stringLiteral(`${iface.name}.${method.name}`)}: ${resultSerializerOf(method)},\n`);
    }
  }
  while (pending.length > 0) pending.shift()!();
  const table = uniqueName('serializers', taken);
  declarations.push({
    kind: 'const',
    part: 'server',
    name: table,
    doc: docComment(
      'The result serializer of every method, keyed `"<Interface>.<method>"`: each writes the known fields only (extra keys are dropped) and returns undefined for a value that is not what the IDL says.',
    ),
    exported: false,
    uses: [{ from: 'runtime', name: 'SerializerTable', typeOnly: true }],
    annotation: 'SerializerTable',
    declaredType: 'SerializerTable',
    value: [entries.length === 0 ? '{}' : `{\n${entries.join('')}}`],
  });
  return { declarations, table };
}

/**
 * The statements writing a union's value: the variant's struct text with the discriminator first,
 * chosen by the value's tag (an unknown tag falls through: not ours to write).
 */
function unionVariantStatements(discriminator: string, variants: readonly { tag: string; writer: string }[]): string[][] {
  return [
    [`const tag = ${propertyRead('value', discriminator)};`],
    ...variants.map((variant) => {
      const head = `{${JSON.stringify(discriminator)}:${JSON.stringify(variant.tag)}`;
      return [
        `if (tag === ${stringLiteral(variant.tag)}) {`,
        `  const fields = ${variant.writer}(value);`,
        '  if (fields === undefined) return;',
        `  return fields === '{}' ? ${stringLiteral(`${head}}`)} : ${stringLiteral(`${head},`)} + fields.slice(1);`,
        '}',
      ];
    }),
  ];
}

/** Groups of lines as the statements of a function body, one line each. */
function lines(groups: readonly (readonly string[])[]): string[][] {
  return groups.flat().map((line) => [line]);
}

/** `value.name`, or `value['na-me']` for a name that is not an identifier (or is `__proto__`). */
function propertyRead(object: string, name: string): string {
  const key = propertyKey(name);
  return key === name && name !== '__proto__' ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/** An IDL type as the IDL writes it, for doc comments. */
function resultLabel(type: IdlJsonType, names: TypeScriptNames): string {
  if ('builtIn' in type) return type.builtIn;
  if ('array' in type) return `[]${resultLabel(type.array, names)}`;
  if ('mapValue' in type) return `map[string]${resultLabel(type.mapValue, names)}`;
  return names.declared(type.userDefined);
}
