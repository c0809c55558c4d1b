/**
 * Mock values of IDL types from the IDL's JSON form: structs with their inherited fields, enums,
 * unions, arrays and maps of a few items, and the built-in types under their constraints. An
 * `@example` of the item is used first (one of them, when it has several); a field named like a
 * parameter of the call gets the parameter's value (`getCart(cartId)` answers that cart).
 */
import type { IdlJson, IdlJsonConstraints, IdlJsonEnum, IdlJsonStruct, IdlJsonType, IdlJsonUnion } from '../idl-json.js';
import { mockBytes, mockDate, mockNumber, mockString, mockTimestamp, MockValueError } from './scalar-values.js';
import { plainWord } from './realistic-values.js';
import type { SeededRandom } from './seeded-random.js';

/** Below this depth optional fields are left out and arrays are empty when they may be: recursive structs end. */
const MAX_DEPTH = 4;

/**
 * The most values one answer may hold: `minItems` on nested arrays could ask for billions, which
 * would end the server; such an answer is refused with a clear error instead.
 */
export const MAX_MOCK_VALUES = 100_000;

/** What is known of the place a value goes: its name, constraints and examples. */
export interface ValueSlot {
  /** The field's or parameter's name ('' for a method's result). */
  name: string;
  constraints?: IdlJsonConstraints;
  examples?: readonly unknown[];
}

/** How values are made for one call. */
export interface MockValueContext {
  random: SeededRandom;
  /** Milliseconds since the epoch: timestamps are made in the month before it. */
  baseTime: number;
  /** Whether `@example` values and echoed params are used (off for a second try when one breaks a constraint). */
  useExamples: boolean;
  /** The call's parameters by name: a field of the same name and kind takes the value. */
  echo: ReadonlyMap<string, unknown>;
  /** How many values this answer holds so far (bounded by MAX_MOCK_VALUES). */
  made: number;
}

/** The IDL's named types, looked up by name. */
export class MockTypes {
  readonly structs: ReadonlyMap<string, IdlJsonStruct>;
  readonly enums: ReadonlyMap<string, IdlJsonEnum>;
  readonly unions: ReadonlyMap<string, IdlJsonUnion>;

  constructor(idl: IdlJson) {
    this.structs = new Map((idl.structs ?? []).map((struct) => [struct.name, struct]));
    this.enums = new Map((idl.enums ?? []).map((e) => [e.name, e]));
    this.unions = new Map((idl.unions ?? []).map((union) => [union.name, union]));
  }

  /** A value of `type` for `slot`, in wire form (JSON). */
  value(type: IdlJsonType, slot: ValueSlot, context: MockValueContext, depth = 0): unknown {
    const { random } = context;
    if (++context.made > MAX_MOCK_VALUES) {
      throw new MockValueError(`an answer would hold more than ${MAX_MOCK_VALUES} values (minItems of nested arrays?)`);
    }
    if (context.useExamples && slot.examples !== undefined && slot.examples.length > 0) return structuredClone(random.pick(slot.examples));
    const echoed = context.echo.get(slot.name);
    if (echoed !== undefined && sameKind(type, echoed)) return echoed;
    if ('array' in type) return this.array(type.array, slot, context, depth);
    if ('mapValue' in type) return this.map(type.mapValue, slot, context, depth);
    if ('userDefined' in type) return this.named(type.userDefined, context, depth);
    switch (type.builtIn) {
      case 'string':
        return mockString(slot.name, slot.constraints, random);
      case 'int':
      case 'float':
        return mockNumber(slot.name, type.builtIn === 'int', slot.constraints, random, context.baseTime);
      case 'bool':
        return random.next() < 0.5;
      case 'timestamp':
        return mockTimestamp(random, context.baseTime);
      case 'date':
        return mockDate(random, context.baseTime);
      case 'bytes':
        return mockBytes(random);
      case 'json':
        return { note: plainWord(random), count: random.int(1, 9) };
    }
  }

  /** A few items (within `minItems`/`maxItems`); the other constraints apply to each item. */
  private array(item: IdlJsonType, slot: ValueSlot, context: MockValueContext, depth: number): unknown[] {
    const { minItems = 0, maxItems, ...itemConstraints } = slot.constraints ?? {};
    const usual = depth >= MAX_DEPTH ? 0 : context.random.int(2, 4);
    const count = Math.max(minItems, Math.min(usual, maxItems ?? usual));
    const itemSlot: ValueSlot = { name: singular(slot.name), constraints: itemConstraints };
    return Array.from({ length: count }, () => this.value(item, itemSlot, context, depth + 1));
  }

  /** A map of a few entries under plain keys. */
  private map(item: IdlJsonType, slot: ValueSlot, context: MockValueContext, depth: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    const count = depth >= MAX_DEPTH ? 0 : context.random.int(1, 3);
    for (let index = 0; index < count; index++) {
      map[`${plainWord(context.random)}${index + 1}`] = this.value(item, { name: '', constraints: slot.constraints }, context, depth + 1);
    }
    return map;
  }

  private named(name: string, context: MockValueContext, depth: number): unknown {
    const { random } = context;
    const enumType = this.enums.get(name);
    if (enumType) {
      if (context.useExamples && enumType.examples?.length) return random.pick(enumType.examples);
      const values = enumType.values ?? [];
      if (values.length === 0) throw new MockValueError(`enum ${name} has no values`);
      return random.pick(values).name;
    }
    const union = this.unions.get(name);
    if (union) {
      if (context.useExamples && union.examples?.length) return structuredClone(random.pick(union.examples));
      const variants = union.variants ?? [];
      if (variants.length === 0) throw new MockValueError(`union ${name} has no variants`);
      const variant = random.pick(variants);
      return { [union.discriminator]: variant.tag, ...(this.named(variant.type, context, depth) as object) };
    }
    const struct = this.structs.get(name);
    if (!struct) throw new MockValueError(`the IDL declares no type ${name}`);
    if (context.useExamples && struct.examples?.length) return structuredClone(random.pick(struct.examples));
    return this.struct(struct, context, depth);
  }

  /** Every required field, its inherited ones first; optional ones mostly, never deep down. */
  private struct(struct: IdlJsonStruct, context: MockValueContext, depth: number): Record<string, unknown> {
    const chain: IdlJsonStruct[] = [];
    for (
      let current: IdlJsonStruct | undefined = struct;
      current;
      current = current.extends ? this.structs.get(current.extends) : undefined
    ) {
      if (chain.includes(current)) break;
      chain.unshift(current);
    }
    const value: Record<string, unknown> = {};
    for (const field of chain.flatMap((s) => s.fields ?? [])) {
      if (field.optional && (depth >= MAX_DEPTH || context.random.next() < 0.2)) continue;
      value[field.name] = this.value(field.type, field, context, depth + 1);
    }
    return value;
  }
}

/** Whether an echoed parameter has the JSON kind of a scalar type (a field named like it but of another type keeps its own value). */
function sameKind(type: IdlJsonType, value: unknown): boolean {
  if (!('builtIn' in type)) return false;
  if (type.builtIn === 'string') return typeof value === 'string';
  if (type.builtIn === 'int') return Number.isSafeInteger(value);
  if (type.builtIn === 'float') return typeof value === 'number';
  return false;
}

/** `items` -> `item`, `addresses` -> `address`: the name of one item of a list field. */
function singular(name: string): string {
  if (/sses$|xes$|ches$|shes$/.test(name)) return name.slice(0, -2);
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
}
