/**
 * Request values pre-filled from the IDL's types (what the server's `rpc-idl` answers): defaults
 * and `@example` values first, then every required field of a struct (inherited ones first), the
 * first value of an enum, the first variant of a union (its discriminator set), and scalars and
 * arrays that meet their constraints. Optional fields are left out.
 */

/** How deep nested structs are filled before the template stops at null (recursive structs). */
const MAX_DEPTH = 8;

/**
 * The declarations of an IDL by name.
 * @param {any} idl
 */
export function idlIndex(idl) {
  /** @type {Map<string, any>} */
  const structs = new Map();
  /** @type {Map<string, any>} */
  const enums = new Map();
  for (const struct of idl.structs ?? []) {
    structs.set(struct.name, struct);
    structs.set(qualified(struct), struct);
  }
  for (const declared of idl.enums ?? []) {
    enums.set(declared.name, declared);
    enums.set(qualified(declared), declared);
  }
  /** @type {Map<string, any>} */
  const unions = new Map();
  for (const declared of idl.unions ?? []) {
    unions.set(declared.name, declared);
    unions.set(qualified(declared), declared);
  }
  return { idl, structs, enums, unions };
}

/** @param {{ name: string, namespace: string }} declaration */
const qualified = (declaration) => (declaration.name.includes('.') ? declaration.name : `${declaration.namespace}.${declaration.name}`);

/**
 * Every field of a struct, its ancestors' first.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} struct
 * @returns {any[]}
 */
export function allFields(index, struct) {
  const chain = [];
  const seen = new Set();
  for (let current = struct; current && !seen.has(current); current = current.extends ? index.structs.get(current.extends) : undefined) {
    seen.add(current);
    chain.unshift(current);
  }
  return chain.flatMap((s) => s.fields ?? []);
}

/**
 * The pre-filled value of a field or parameter: its default, else its first `@example`, else a
 * value of its type that meets its constraints.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {{ type: any, default?: unknown, examples?: unknown[], constraints?: Record<string, any> }} item
 * @param {number} [depth]
 * @returns {unknown}
 */
export function itemTemplate(index, item, depth = 0) {
  if ('default' in item) return item.default;
  if (item.examples && item.examples.length > 0) return item.examples[0];
  return templateOf(index, item.type, depth, item.constraints);
}

/** Sample texts of the formats the server checks, so that a pre-filled request passes. */
const FORMAT_SAMPLES = {
  email: 'user@example.com',
  uri: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

/**
 * A value of the type, pre-filled: a struct's first `@example`, else its required fields; numbers,
 * strings and arrays within their constraints (on an array or map, the element constraints apply
 * to each element).
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} type
 * @param {number} [depth]
 * @param {Record<string, any>} [constraints]
 * @returns {unknown}
 */
export function templateOf(index, type, depth = 0, constraints = {}) {
  if (type.builtIn) return scalarTemplate(type.builtIn, constraints);
  if (type.array) {
    const element = templateOf(index, type.array, depth + 1, constraints);
    return Array.from({ length: constraints.minItems ?? 0 }, () => element);
  }
  if (type.mapValue) return {};
  const enumType = index.enums.get(type.userDefined);
  if (enumType) return enumType.values?.[0]?.name ?? '';
  const union = index.unions.get(type.userDefined);
  // The first variant (the console's chooser switches to the others).
  if (union) return depth >= MAX_DEPTH ? null : variantTemplate(index, union, union.variants?.[0]?.tag, depth);
  const struct = index.structs.get(type.userDefined);
  if (!struct || depth >= MAX_DEPTH) return null;
  if (struct.examples && struct.examples.length > 0) return struct.examples[0];
  /** @type {Record<string, unknown>} */
  const value = {};
  for (const field of allFields(index, struct)) {
    if (!field.optional) value[field.name] = itemTemplate(index, field, depth + 1);
  }
  return value;
}

/**
 * @param {string} builtIn
 * @param {Record<string, any>} constraints
 */
function scalarTemplate(builtIn, constraints) {
  if (builtIn === 'int' || builtIn === 'float') return numberTemplate(builtIn === 'int', constraints);
  if (builtIn === 'string') {
    const sample = FORMAT_SAMPLES[/** @type {'email'} */ (constraints.format)];
    return sample ?? 'x'.repeat(constraints.minLength ?? 0);
  }
  const scalars = { bool: false, timestamp: '2026-01-01T00:00:00Z', date: '2026-01-01', bytes: '', json: null };
  return scalars[/** @type {'bool'} */ (builtIn)];
}

/**
 * The smallest number the constraints allow from 0 up (or the lower bound), a multiple of
 * `multipleOf` when one is set.
 * @param {boolean} integer
 * @param {Record<string, any>} c
 */
function numberTemplate(integer, c) {
  const step = c.multipleOf ?? (integer ? 1 : 0.5);
  let value = Math.max(0, c.min ?? Number.NEGATIVE_INFINITY);
  if (c.max !== undefined && value > c.max) value = c.min ?? c.max;
  if (c.exclusiveMax !== undefined && value >= c.exclusiveMax) value = c.min ?? c.exclusiveMax - step;
  if (c.exclusiveMin !== undefined && value <= c.exclusiveMin) value = c.exclusiveMin + step;
  if (c.multipleOf !== undefined) value = Math.ceil(value / c.multipleOf) * c.multipleOf;
  return integer ? Math.ceil(value) : value;
}

/**
 * The constraints and default of a field or parameter as short hints (`min 1`, `default 30`).
 * @param {{ default?: unknown, constraints?: Record<string, unknown> }} item
 * @returns {string[]}
 */
export function constraintHints(item) {
  const hints = Object.entries(item.constraints ?? {}).map(([name, value]) => `${name} ${JSON.stringify(value)}`);
  if ('default' in item) hints.unshift(`default ${JSON.stringify(item.default)}`);
  return hints;
}

/**
 * A value of the variant `tag` of a union: its discriminator first, then its struct's template;
 * null when the union has no such variant.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} union
 * @param {string | undefined} tag
 * @param {number} [depth]
 * @returns {unknown}
 */
export function variantTemplate(index, union, tag, depth = 0) {
  const variant = (union.variants ?? []).find((/** @type {any} */ v) => v.tag === tag);
  if (!variant) return null;
  const fields = templateOf(index, { userDefined: variant.type }, depth + 1);
  return { [union.discriminator]: variant.tag, ...(fields && typeof fields === 'object' ? fields : {}) };
}

/**
 * The union a type names, else undefined.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} type
 */
export function unionOf(index, type) {
  return type.userDefined ? index.unions.get(type.userDefined) : undefined;
}

/**
 * The enum values of the type when it is an enum, else undefined.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} type
 * @returns {string[] | undefined}
 */
export function enumChoices(index, type) {
  const enumType = type.userDefined ? index.enums.get(type.userDefined) : undefined;
  return enumType ? (enumType.values ?? []).map((/** @type {any} */ v) => v.name) : undefined;
}

/**
 * The enum-typed places inside a type (`paymentMethod`, `items[].status`) with their values, and
 * the discriminators of unions (`payment.kind`) with their tags, for hints beside a JSON editor.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} type
 * @returns {{ place: string, values: string[] }[]}
 */
export function enumPlaces(index, type) {
  /** @type {{ place: string, values: string[] }[]} */
  const places = [];
  /** @type {Set<any>} */
  const visiting = new Set();
  /** @param {any} t @param {string} place */
  const walk = (t, place) => {
    if (t.array) return walk(t.array, `${place}[]`);
    if (t.mapValue) return walk(t.mapValue, `${place}{}`);
    const values = enumChoices(index, t);
    if (values) return places.push({ place, values });
    const union = t.userDefined ? index.unions.get(t.userDefined) : undefined;
    if (union) {
      const values = (union.variants ?? []).map((/** @type {any} */ v) => v.tag);
      return places.push({ place: place ? `${place}.${union.discriminator}` : union.discriminator, values });
    }
    const struct = t.userDefined ? index.structs.get(t.userDefined) : undefined;
    if (!struct || visiting.has(struct)) return;
    visiting.add(struct);
    for (const field of allFields(index, struct)) walk(field.type, place ? `${place}.${field.name}` : field.name);
    visiting.delete(struct);
  };
  walk(type, '');
  return places;
}

/**
 * The IDL spelling of a type: `string`, `[]Product`, `map[string]int`.
 * @param {any} type
 * @returns {string}
 */
export function typeText(type) {
  if (type.builtIn) return type.builtIn;
  if (type.array) return `[]${typeText(type.array)}`;
  if (type.mapValue) return `map[string]${typeText(type.mapValue)}`;
  return type.userDefined;
}
