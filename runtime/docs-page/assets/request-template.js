/**
 * Request values pre-filled from the IDL's types (what the server's `rpc-idl` answers): every
 * required field of a struct (inherited ones first), the first value of an enum, the first variant
 * of a union (its discriminator set), and empty scalars, arrays and maps. Optional fields are left out.
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
 * A value of the type, pre-filled.
 * @param {ReturnType<typeof idlIndex>} index
 * @param {any} type
 * @param {number} [depth]
 * @returns {unknown}
 */
export function templateOf(index, type, depth = 0) {
  if (type.builtIn) {
    const scalars = {
      string: '',
      int: 0,
      float: 0,
      bool: false,
      timestamp: '2026-01-01T00:00:00Z',
      date: '2026-01-01',
      bytes: '',
      json: null,
    };
    return scalars[/** @type {'string'} */ (type.builtIn)];
  }
  if (type.array) return [];
  if (type.mapValue) return {};
  const enumType = index.enums.get(type.userDefined);
  if (enumType) return enumType.values?.[0]?.name ?? '';
  const union = index.unions.get(type.userDefined);
  if (union) {
    // The first variant, its discriminator first (the chooser beside the editor lists the others).
    const first = union.variants?.[0];
    if (!first || depth >= MAX_DEPTH) return null;
    const fields = templateOf(index, { userDefined: first.type }, depth + 1);
    return { [union.discriminator]: first.tag, ...(fields && typeof fields === 'object' ? fields : {}) };
  }
  const struct = index.structs.get(type.userDefined);
  if (!struct || depth >= MAX_DEPTH) return null;
  /** @type {Record<string, unknown>} */
  const value = {};
  for (const field of allFields(index, struct)) {
    if (!field.optional) value[field.name] = templateOf(index, field.type, depth + 1);
  }
  return value;
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
