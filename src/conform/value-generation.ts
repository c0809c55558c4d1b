/**
 * Values of IDL types, drawn at random: what valid requests are made of. Each value aims at its
 * type's wire form and the constraints of its attribute list (docs/idl.md, "Attributes"); what it
 * cannot aim at exactly (a `pattern`) is filtered afterwards by the IDL's own validators, and
 * `@example` values are used now and then, which usually meet a pattern.
 */
import type { IdlJsonConstraints, IdlJsonType } from '../../runtime/idl-json.js';
import type { IdlIndex } from './idl-index.js';
import type { Random } from './random.js';

/** How large generated values get: grows over a run, as property-based testers do. */
export interface GenerationContext {
  index: IdlIndex;
  random: Random;
  /** 0 (tiny values) up to about 10. */
  size: number;
}

/** Nesting below which optional fields are left out and arrays kept at their smallest (recursive structs end). */
const MAX_DEPTH = 4;

const PLAIN_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
/** Characters that trip naive servers: accents, an astral character (two UTF-16 units), a space, quotes. */
const TRICKY_CHARACTERS = ['é', 'ß', '中', '😀', ' ', '"', "'", '\\', '/'];

/** A random value of `type` meeting `constraints` as far as a generator can (see the file comment). */
export function generateValue(
  type: IdlJsonType,
  constraints: IdlJsonConstraints | undefined,
  context: GenerationContext,
  examples?: readonly unknown[],
  depth = 0,
): unknown {
  const { random } = context;
  if (examples && examples.length > 0 && random.chance(0.3)) return structuredClone(random.pick(examples));
  if ('builtIn' in type) return builtInValue(type.builtIn, constraints, context);
  if ('array' in type) {
    const min = constraints?.minItems ?? 0;
    const max = Math.max(
      min,
      Math.min(constraints?.maxItems ?? Number.MAX_SAFE_INTEGER, depth >= MAX_DEPTH ? min : min + Math.ceil(context.size / 3)),
    );
    const elementConstraints = withoutItemCounts(constraints);
    return Array.from({ length: random.int(min, max) }, () => generateValue(type.array, elementConstraints, context, undefined, depth + 1));
  }
  if ('mapValue' in type) {
    const count = depth >= MAX_DEPTH ? 0 : random.int(0, Math.ceil(context.size / 3));
    const map: Record<string, unknown> = {};
    for (let i = 0; i < count; i++)
      map[randomText(context, 1, 8)] = generateValue(type.mapValue, constraints, context, undefined, depth + 1);
    return map;
  }
  return namedValue(type.userDefined, context, depth);
}

function namedValue(name: string, context: GenerationContext, depth: number): unknown {
  const { index, random } = context;
  const enumeration = index.enums.get(name);
  if (enumeration) return random.pick(enumeration.values ?? [{ name: '' }]).name;
  const union = index.unions.get(name);
  if (union) {
    const variant = random.pick(union.variants ?? []);
    if (!variant) return {};
    return { [union.discriminator]: variant.tag, ...(structValue(variant.type, context, depth) as object) };
  }
  const struct = index.structs.get(name);
  if (struct?.examples?.length && random.chance(0.2)) return structuredClone(random.pick(struct.examples));
  return structValue(name, context, depth);
}

function structValue(name: string, context: GenerationContext, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of context.index.fieldsOf(name)) {
    if (field.optional) {
      if (depth >= MAX_DEPTH || context.random.chance(0.3)) continue;
      if (context.random.chance(0.15)) {
        value[field.name] = null;
        continue;
      }
    }
    value[field.name] = generateValue(field.type, field.constraints, context, field.examples, depth + 1);
  }
  return value;
}

function withoutItemCounts(constraints: IdlJsonConstraints | undefined): IdlJsonConstraints | undefined {
  if (!constraints) return undefined;
  const { minItems: _min, maxItems: _max, ...rest } = constraints;
  return rest;
}

function builtInValue(kind: string, constraints: IdlJsonConstraints | undefined, context: GenerationContext): unknown {
  const { random } = context;
  switch (kind) {
    case 'string':
      return stringValue(constraints, context);
    case 'int':
      return numberValue(constraints, context, true);
    case 'float':
      return numberValue(constraints, context, false);
    case 'bool':
      return random.chance(0.5);
    case 'timestamp':
      return new Date(Date.UTC(2000, 0, 1) + random.int(0, 30 * 365) * 86_400_000 + random.int(0, 86_399_999)).toISOString();
    case 'date':
      return new Date(Date.UTC(2000, 0, 1) + random.int(0, 30 * 365) * 86_400_000).toISOString().slice(0, 10);
    case 'bytes':
      return Buffer.from(Array.from({ length: random.int(0, context.size * 2) }, () => random.int(0, 255))).toString('base64');
    default:
      return jsonValue(context, 0);
  }
}

function stringValue(constraints: IdlJsonConstraints | undefined, context: GenerationContext): string {
  const { random } = context;
  const serial = random.int(0, 9999);
  switch (constraints?.format) {
    case 'email':
      return `user${serial}@example.com`;
    case 'uri':
      return `https://example.com/item/${serial}`;
    case 'uuid':
      return hex(random, 8) + '-' + hex(random, 4) + '-4' + hex(random, 3) + '-a' + hex(random, 3) + '-' + hex(random, 12);
    case 'ipv4':
      return Array.from({ length: 4 }, () => random.int(0, 255)).join('.');
    case 'ipv6':
      return Array.from({ length: 8 }, () => hex(random, 4)).join(':');
    case 'hostname':
      return `host${serial}.example.com`;
  }
  const min = constraints?.minLength ?? 0;
  const max = Math.max(min, Math.min(constraints?.maxLength ?? Number.MAX_SAFE_INTEGER, min + 2 + context.size * 2));
  return randomText(context, min, max);
}

/** Text of `min` to `max` code points (the unit `minLength`/`maxLength` count), mostly plain. */
function randomText(context: GenerationContext, min: number, max: number): string {
  const { random } = context;
  const length = random.int(min, max);
  let text = '';
  for (let i = 0; i < length; i++) {
    text += random.chance(0.05) ? random.pick(TRICKY_CHARACTERS) : PLAIN_CHARACTERS[random.int(0, PLAIN_CHARACTERS.length - 1)];
  }
  return text;
}

function hex(random: Random, digits: number): string {
  let text = '';
  for (let i = 0; i < digits; i++) text += random.int(0, 15).toString(16);
  return text;
}

function numberValue(constraints: IdlJsonConstraints | undefined, context: GenerationContext, integer: boolean): number {
  const { random } = context;
  const spread = 10 ** Math.min(1 + Math.floor(context.size / 2), 6);
  let low = constraints?.min ?? constraints?.exclusiveMin ?? (constraints?.max !== undefined ? constraints.max - spread : -spread);
  let high = constraints?.max ?? constraints?.exclusiveMax ?? low + 2 * spread;
  if (constraints?.exclusiveMin !== undefined)
    low = integer ? Math.floor(constraints.exclusiveMin) + 1 : constraints.exclusiveMin + Number.EPSILON * 4;
  if (constraints?.exclusiveMax !== undefined) high = integer ? Math.ceil(constraints.exclusiveMax) - 1 : constraints.exclusiveMax;
  high = Math.min(high, low + 2 * spread);
  const step = constraints?.multipleOf;
  if (step !== undefined) {
    const first = Math.ceil(low / step);
    const last = Math.floor(high / step);
    return last < first ? first * step : random.int(first, last) * step;
  }
  if (integer) return random.int(Math.ceil(low), Math.floor(high));
  // Round numbers now and then: servers that keep prices as cents meet them most.
  const value = low + random.next() * (high - low);
  return random.chance(0.3) ? Math.round(value) : Math.round(value * 100) / 100;
}

function jsonValue(context: GenerationContext, depth: number): unknown {
  const { random } = context;
  switch (random.int(0, depth >= 2 ? 3 : 5)) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.int(-100, 100);
    case 3:
      return randomText(context, 0, 6);
    case 4:
      return Array.from({ length: random.int(0, 3) }, () => jsonValue(context, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: random.int(0, 3) }, (_, i) => [`k${i}`, jsonValue(context, depth + 1)]));
  }
}
