/**
 * Test helper: one mutator per rule of the breaking-change check. Each takes a random valid IDL
 * tree (test/idl/random-idl.ts) and returns the `before` and `after` trees whose comparison must
 * report that rule and no other, or undefined when the tree has nothing to mutate (no method, ...).
 * Where the rule needs something the random tree may lack (an unused struct to remove, an optional
 * builtin field to make required), the mutator adds it to both trees first.
 */
import fc from 'fast-check';
import type { RuleId } from '../../src/breaking/index.js';
import {
  type Attribute,
  syntheticName,
  syntheticSpan,
  type Declaration,
  type EnumDecl,
  type ErrorDecl,
  type Field,
  type IdlFile,
  type InterfaceDecl,
  type Method,
  type StructDecl,
  type TypeRef,
  type UnionDecl,
} from '../../src/idl/index.js';

type Gen = fc.GeneratorValue;
export interface Mutation {
  before: IdlFile;
  after: IdlFile;
}
type Mutator = (g: Gen, file: IdlFile) => Mutation | undefined;

const FILE = 'random.idl';
const span = () => syntheticSpan(FILE);
const name = (text: string) => syntheticName(text, FILE);
/** Longer than any name random-idl.ts makes (at most 11 characters), so never taken. */
const FRESH = 'freshNameXYZ';
const fresh = (suffix = '') => `${FRESH}${suffix}`;
const builtIn = (type: 'string' | 'int' | 'float' | 'bool'): TypeRef => ({ kind: 'builtIn', name: type, span: span() });

function pick<T>(g: Gen, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[g(fc.nat, { max: items.length - 1 })];
}

const interfacesOf = (file: IdlFile) => file.declarations.filter((d): d is InterfaceDecl => d.kind === 'interface');
const structsOf = (file: IdlFile) => file.declarations.filter((d): d is StructDecl => d.kind === 'struct');
const enumsOf = (file: IdlFile) => file.declarations.filter((d): d is EnumDecl => d.kind === 'enum');
const errorsOf = (file: IdlFile) => file.declarations.flatMap((d) => (d.kind === 'errors' ? d.errors : []));
const methodsOf = (file: IdlFile) => interfacesOf(file).flatMap((i) => i.methods);

/** `change` applied to a copy of `file` (kept as `before`); undefined when it found nothing to change. */
function mutate(file: IdlFile, change: (copy: IdlFile) => boolean): Mutation | undefined {
  const after = structuredClone(file);
  return change(after) ? { before: file, after } : undefined;
}

/** `file` with `declarations` added (to both trees, when used as a preparation). */
function withDeclarations(file: IdlFile, ...declarations: Declaration[]): IdlFile {
  return { ...structuredClone(file), declarations: [...structuredClone(file.declarations), ...declarations] };
}

/** A struct of its own with one builtin field, for the field rules. */
function preparedStruct(field: Partial<Field> = {}): StructDecl {
  return {
    kind: 'struct',
    name: name(fresh('S')),
    fields: [{ name: name('present'), type: builtIn('int'), optional: false, span: span(), ...field }],
    span: span(),
  };
}

/** A random method of `file` (by index in the copy), or undefined. */
function pickMethod(g: Gen, file: IdlFile, where: (m: Method) => boolean = () => true): ((copy: IdlFile) => Method) | undefined {
  const methods = methodsOf(file);
  const indexes = methods.map((m, i) => [m, i] as const).filter(([m]) => where(m));
  const chosen = pick(g, indexes);
  return chosen ? (copy) => methodsOf(copy)[chosen[1]] : undefined;
}

function onMethod(g: Gen, file: IdlFile, where: (m: Method) => boolean, change: (m: Method) => void): Mutation | undefined {
  const chosen = pickMethod(g, file, where);
  return chosen ? mutate(file, (copy) => (change(chosen(copy)), true)) : undefined;
}

/** The other builtin type than the one `type` is: a type that surely differs. */
const otherType = (type: TypeRef): TypeRef => builtIn(type.kind === 'builtIn' && type.name === 'string' ? 'int' : 'string');

/** Every place a type is written, as setters on the copy: fields, parameters, returns. */
function typeSlots(file: IdlFile): { type: TypeRef; set: (copy: IdlFile, type: TypeRef) => void }[] {
  const slots: { type: TypeRef; set: (copy: IdlFile, type: TypeRef) => void }[] = [];
  for (const [si, s] of structsOf(file).entries()) {
    for (const [fi, f] of s.fields.entries()) {
      slots.push({ type: f.type, set: (copy, t) => void (structsOf(copy)[si].fields[fi].type = t) });
    }
  }
  for (const [mi, m] of methodsOf(file).entries()) {
    slots.push({ type: m.returnType, set: (copy, t) => void (methodsOf(copy)[mi].returnType = t) });
    for (const [pi, p] of m.parameters.entries()) {
      slots.push({ type: p.type, set: (copy, t) => void (methodsOf(copy)[mi].parameters[pi].type = t) });
    }
  }
  return slots;
}

export const MUTATORS: Record<RuleId, Mutator> = {
  'namespace-changed': (_g, file) => mutate(file, (copy) => ((copy.namespace!.name = name(fresh('ns'))), true)),
  'interface-removed': (g, file) => {
    const chosen = pick(g, interfacesOf(file));
    return (
      chosen &&
      mutate(
        file,
        (copy) => ((copy.declarations = copy.declarations.filter((d) => d.kind === 'errors' || d.name.text !== chosen.name.text)), true),
      )
    );
  },
  'interface-added': (_g, file) => ({
    before: file,
    after: withDeclarations(file, { kind: 'interface', name: name(fresh('I')), methods: [], span: span() }),
  }),
  'method-removed': (g, file) => {
    const candidates = interfacesOf(file).filter((i) => i.methods.length > 0);
    const chosen = pick(g, candidates);
    if (!chosen) return undefined;
    const index = g(fc.nat, { max: chosen.methods.length - 1 });
    return mutate(file, (copy) => {
      const iface = interfacesOf(copy).find((i) => i.name.text === chosen.name.text)!;
      iface.methods.splice(index, 1);
      return true;
    });
  },
  'method-added': (g, file) => {
    const chosen = pick(g, interfacesOf(file));
    return (
      chosen &&
      mutate(file, (copy) => {
        const method: Method = {
          name: name(fresh('m')),
          parameters: [],
          returnType: builtIn('int'),
          returnOptional: false,
          raises: [],
          span: span(),
        };
        interfacesOf(copy)
          .find((i) => i.name.text === chosen.name.text)!
          .methods.push(method);
        return true;
      })
    );
  },
  'param-added': (g, file) =>
    onMethod(
      g,
      file,
      () => true,
      (m) => m.parameters.push({ name: name(fresh('p')), type: builtIn('bool'), span: span() }),
    ),
  'param-removed': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.parameters.length > 0,
      (m) => m.parameters.splice(g(fc.nat, { max: m.parameters.length - 1 }), 1),
    ),
  'param-reordered': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.parameters.length > 1,
      (m) => {
        const i = g(fc.nat, { max: m.parameters.length - 2 });
        [m.parameters[i], m.parameters[i + 1]] = [m.parameters[i + 1], m.parameters[i]];
      },
    ),
  'param-renamed': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.parameters.length > 0,
      (m) => (m.parameters[g(fc.nat, { max: m.parameters.length - 1 })].name = name(fresh('p'))),
    ),
  'param-type-changed': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.parameters.length > 0,
      (m) => {
        const p = m.parameters[g(fc.nat, { max: m.parameters.length - 1 })];
        p.type = otherType(p.type);
      },
    ),
  'return-type-changed': (g, file) =>
    onMethod(
      g,
      file,
      () => true,
      (m) => (m.returnType = otherType(m.returnType)),
    ),
  'return-made-optional': (g, file) =>
    onMethod(
      g,
      file,
      // A stream's items cannot be optional.
      (m) => !m.returnOptional && !m.stream,
      (m) => (m.returnOptional = true),
    ),
  'return-made-required': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.returnOptional,
      (m) => (m.returnOptional = false),
    ),
  'method-stream-changed': (g, file) =>
    onMethod(
      g,
      file,
      // A stream's item cannot be optional: only a method with a required return can become one.
      (m) => !m.returnOptional,
      (m) => {
        if (m.stream) delete m.stream;
        else m.stream = syntheticSpan('random.idl');
      },
    ),
  'raises-added': (g, file) => {
    const errors = errorsOf(file).map((e) => e.name.text);
    const chosen = pickMethod(g, file, (m) => m.raises.length < errors.length);
    return (
      chosen &&
      mutate(file, (copy) => {
        const method = chosen(copy);
        const missing = errors.filter((e) => !method.raises.some((r) => r.text === e));
        method.raises.push(name(pick(g, missing)!));
        return true;
      })
    );
  },
  'raises-removed': (g, file) =>
    onMethod(
      g,
      file,
      (m) => m.raises.length > 0,
      (m) => m.raises.splice(g(fc.nat, { max: m.raises.length - 1 }), 1),
    ),
  'type-renamed': (g, file) => {
    // A copy of a struct under another name in both trees; one reference to it moves to the copy.
    const structs = structsOf(file);
    const slots = typeSlots(file).filter(({ type }) => type.kind === 'named' && structs.some((s) => s.name.text === type.name));
    const slot = pick(g, slots);
    const referenced = slot?.type.kind === 'named' ? slot.type.name : undefined;
    if (!slot || referenced === undefined) return undefined;
    const original = structs.find((s) => s.name.text === referenced)!;
    const before = withDeclarations(file, { ...structuredClone(original), name: name(fresh('Copy')) });
    const after = structuredClone(before);
    slot.set(after, { kind: 'named', name: fresh('Copy'), span: span() });
    return { before, after };
  },
  'struct-added': (_g, file) => ({ before: file, after: withDeclarations(file, preparedStruct()) }),
  'struct-removed': (_g, file) => ({ before: withDeclarations(file, preparedStruct()), after: file }),
  'struct-extends-changed': (_g, file) => {
    const parent: StructDecl = { kind: 'struct', name: name(fresh('P')), fields: [], span: span() };
    const child: StructDecl = { kind: 'struct', name: name(fresh('C')), fields: [], span: span() };
    return {
      before: withDeclarations(file, parent, child),
      after: withDeclarations(file, parent, { ...child, extends: name(fresh('P')) }),
    };
  },
  'field-added-required': (g, file) => fieldAdded(g, file, false),
  'field-added-optional': (g, file) => fieldAdded(g, file, true),
  'field-removed': (_g, file) => preparedFieldChange(file, {}, (s) => s.fields.pop()),
  'optional-field-removed': (_g, file) => preparedFieldChange(file, { optional: true }, (s) => s.fields.pop()),
  'field-made-optional': (_g, file) => preparedFieldChange(file, {}, (s) => (s.fields[0].optional = true)),
  'field-made-required': (_g, file) => preparedFieldChange(file, { optional: true }, (s) => (s.fields[0].optional = false)),
  'field-type-changed': (_g, file) => preparedFieldChange(file, {}, (s) => (s.fields[0].type = builtIn('string'))),
  'enum-added': (_g, file) => ({ before: file, after: withDeclarations(file, preparedEnum()) }),
  'enum-removed': (_g, file) => ({ before: withDeclarations(file, preparedEnum()), after: file }),
  'enum-value-added': (g, file) => {
    const chosen = pick(g, enumsOf(file));
    return (
      chosen &&
      mutate(
        file,
        (copy) => (
          enumsOf(copy)
            .find((e) => e.name.text === chosen.name.text)!
            .values.push({ name: name(fresh('v')), span: span() }),
          true
        ),
      )
    );
  },
  'enum-value-removed': (g, file) => {
    const chosen = pick(
      g,
      enumsOf(file).filter((e) => e.values.length > 1),
    );
    if (!chosen) return undefined;
    const index = g(fc.nat, { max: chosen.values.length - 1 });
    return mutate(
      file,
      (copy) => (
        enumsOf(copy)
          .find((e) => e.name.text === chosen.name.text)!
          .values.splice(index, 1),
        true
      ),
    );
  },
  'error-added': (_g, file) => ({ before: file, after: withDeclarations(file, preparedErrors(file)) }),
  'error-removed': (_g, file) => ({ before: withDeclarations(file, preparedErrors(file)), after: file }),
  'error-code-changed': (g, file) => {
    const chosen = pick(g, errorsOf(file));
    return (
      chosen && mutate(file, (copy) => ((errorsOf(copy).find((e) => e.name.text === chosen.name.text)!.code = unusedCode(file)), true))
    );
  },
  'error-message-changed': (g, file) => {
    const chosen = pick(g, errorsOf(file));
    return (
      chosen &&
      mutate(file, (copy) => {
        const error = errorsOf(copy).find((e) => e.name.text === chosen.name.text)!;
        error.message = `${error.message} (changed)`;
        return true;
      })
    );
  },
  'union-added': (_g, file) => {
    const before = withDeclarations(file, ...variantStructs());
    return { before, after: withDeclarations(before, preparedUnion([['a', 'V1']])) };
  },
  'union-removed': (_g, file) => {
    const after = withDeclarations(file, ...variantStructs());
    return { before: withDeclarations(after, preparedUnion([['a', 'V1']])), after };
  },
  'struct-made-union': (_g, file) => {
    const base = withDeclarations(file, ...variantStructs());
    const struct: StructDecl = { ...preparedStruct(), name: name(fresh('U')) };
    return { before: withDeclarations(base, struct), after: withDeclarations(base, preparedUnion([['a', 'V1']])) };
  },
  'union-variant-added': (_g, file) => {
    const base = withDeclarations(file, ...variantStructs());
    return {
      before: withDeclarations(base, preparedUnion([['a', 'V1']])),
      after: withDeclarations(
        base,
        preparedUnion([
          ['a', 'V1'],
          ['b', 'V2'],
        ]),
      ),
    };
  },
  'union-variant-removed': (_g, file) => {
    const base = withDeclarations(file, ...variantStructs());
    return {
      before: withDeclarations(
        base,
        preparedUnion([
          ['a', 'V1'],
          ['b', 'V2'],
        ]),
      ),
      after: withDeclarations(base, preparedUnion([['a', 'V1']])),
    };
  },
  'union-variant-type-changed': (_g, file) => {
    const base = withDeclarations(file, ...variantStructs());
    return { before: withDeclarations(base, preparedUnion([['a', 'V1']])), after: withDeclarations(base, preparedUnion([['a', 'V2']])) };
  },
  'union-discriminator-changed': (_g, file) => {
    const base = withDeclarations(file, ...variantStructs());
    return {
      before: withDeclarations(base, preparedUnion([['a', 'V1']])),
      after: withDeclarations(base, preparedUnion([['a', 'V1']], 'type')),
    };
  },
  'constraint-tightened': (_g, file) =>
    preparedFieldChange(file, { attributes: [attribute('min', 1)] }, (s) => (s.fields[0].attributes = [attribute('min', 2)])),
  'constraint-loosened': (_g, file) =>
    preparedFieldChange(file, { attributes: [attribute('min', 2)] }, (s) => (s.fields[0].attributes = [attribute('min', 1)])),
  'constraint-changed': (_g, file) =>
    preparedFieldChange(
      file,
      { type: builtIn('string'), attributes: [attribute('pattern', '^a')] },
      (s) => (s.fields[0].attributes = [attribute('pattern', '^b')]),
    ),
  'default-added': (_g, file) =>
    preparedFieldChange(file, { optional: true }, (s) => (s.fields[0].attributes = [attribute('optional'), attribute('default', 1)])),
  'default-removed': (_g, file) =>
    preparedFieldChange(file, { optional: true, attributes: [attribute('optional'), attribute('default', 1)] }, (s) => {
      delete s.fields[0].attributes;
    }),
  'default-changed': (_g, file) =>
    preparedFieldChange(
      file,
      { optional: true, attributes: [attribute('optional'), attribute('default', 1)] },
      (s) => (s.fields[0].attributes = [attribute('optional'), attribute('default', 2)]),
    ),
  'param-added-optional': (g, file) =>
    onMethod(
      g,
      file,
      () => true,
      (m) => m.parameters.push({ name: name(fresh('p')), type: builtIn('bool'), optional: true, span: span() }),
    ),
  'param-made-required': (g, file) => lastParameterChange(g, file, true),
  'param-made-optional': (g, file) => lastParameterChange(g, file, false),
  deprecated: (g, file) => {
    const chosen = pick(
      g,
      structsOf(file).filter((s) => !s.comment?.includes('@deprecated')),
    );
    return (
      chosen &&
      mutate(file, (copy) => {
        const struct = structsOf(copy).find((s) => s.name.text === chosen.name.text)!;
        struct.comment = struct.comment === undefined ? '@deprecated' : `${struct.comment}\n@deprecated`;
        return true;
      })
    );
  },
  // Before: a method (not a stream) marked @readonly; after: the same without the mark.
  'readonly-removed': (g, file) => {
    const chosen = pickMethod(g, file, (m) => !m.stream && !m.comment?.includes('@readonly'));
    if (!chosen) return undefined;
    const before = structuredClone(file);
    const method = chosen(before);
    method.comment = method.comment === undefined ? '@readonly' : `${method.comment}\n@readonly`;
    return { before, after: file };
  },
};

/** An attribute list item (`optional` without a value). */
function attribute(text: string, value?: unknown): Attribute {
  if (value === undefined) return { name: name(text), span: span() };
  return { name: name(text), value: { value, text: JSON.stringify(value), span: span() }, span: span() };
}

/** The last parameter of a random method, optional before and required after (or the reverse). */
function lastParameterChange(g: Gen, file: IdlFile, optionalBefore: boolean): Mutation | undefined {
  const chosen = pickMethod(g, file, (m) => m.parameters.length > 0);
  if (!chosen) return undefined;
  const before = structuredClone(file);
  const last = (copy: IdlFile) => chosen(copy).parameters[chosen(copy).parameters.length - 1];
  last(before).optional = optionalBefore;
  const after = structuredClone(before);
  last(after).optional = !optionalBefore;
  return { before, after };
}

function preparedFieldChange(file: IdlFile, field: Partial<Field>, change: (struct: StructDecl) => void): Mutation {
  const before = withDeclarations(file, preparedStruct(field));
  const after = structuredClone(before);
  change(structsOf(after).find((s) => s.name.text === fresh('S'))!);
  return { before, after };
}

/** Two structs of their own, of different shapes, for the union rules. */
function variantStructs(): StructDecl[] {
  return [
    { ...preparedStruct(), name: name(fresh('V1')) },
    { ...preparedStruct({ name: name('other'), type: builtIn('string') }), name: name(fresh('V2')) },
  ];
}

/** A union of its own over `variantStructs` (tag, struct suffix), with `discriminator` when given. */
function preparedUnion(variants: [string, string][], discriminator?: string): UnionDecl {
  const union: UnionDecl = {
    kind: 'union',
    name: name(fresh('U')),
    variants: variants.map(([tag, struct]) => ({ tag: name(tag), type: name(fresh(struct)), span: span() })),
    span: span(),
  };
  if (discriminator !== undefined) union.attributes = [{ name: name('discriminator'), value: name(discriminator), span: span() }];
  return union;
}

function preparedEnum(): EnumDecl {
  return { kind: 'enum', name: name(fresh('E')), values: [{ name: name('one'), span: span() }], span: span() };
}

function preparedErrors(file: IdlFile): Declaration {
  const error: ErrorDecl = { code: unusedCode(file), codeSpan: span(), name: name(fresh('Err')), message: 'fresh', span: span() };
  return { kind: 'errors', errors: [error], span: span() };
}

/** An error code no error of the file uses (random-idl.ts uses 1..2e9 and below -32768). */
function unusedCode(file: IdlFile): number {
  const used = new Set(errorsOf(file).map((e) => e.code));
  let code = 2_000_000_001;
  while (used.has(code)) code++;
  return code;
}

/** A new `int` field (`optional` or not) in a random struct of `file`, or undefined when it has none. */
function fieldAdded(g: Gen, file: IdlFile, optional: boolean): Mutation | undefined {
  const chosen = pick(g, structsOf(file));
  const field = (): Field => ({ name: name(fresh('f')), type: builtIn('int'), optional, span: span() });
  return (
    chosen &&
    mutate(
      file,
      (copy) => (
        structsOf(copy)
          .find((s) => s.name.text === chosen.name.text)!
          .fields.push(field()),
        true
      ),
    )
  );
}
