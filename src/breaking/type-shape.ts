/**
 * Comparing type expressions of two contracts: equal (same text), the same JSON shape under other
 * type names (a renamed struct or enum: nothing changes on the wire), or different.
 */
import type { IdlJsonType } from '../../runtime/idl-json.js';
import type { Contract, ContractField } from './contract.js';
import { namedTypeOf } from './directions.js';

/**
 * A type expression as the IDL writes it: `[]map[string]Cart`. `marked`: built-in types are
 * followed by ` (built-in)`, to tell them from a declared type of the same name.
 */
export function typeText(type: IdlJsonType, marked = false): string {
  if ('builtIn' in type) return marked ? `${type.builtIn} (built-in)` : type.builtIn;
  if ('array' in type) return `[]${typeText(type.array, marked)}`;
  if ('mapValue' in type) return `map[string]${typeText(type.mapValue, marked)}`;
  return type.userDefined;
}

export type TypeComparison = 'same' | 'same-shape' | 'different';

/**
 * How the type `before` of the old contract compares with `after` of the new one. Named types of
 * one name are `same` here (changes inside them are reported on the type itself); of two names,
 * `same-shape` when their values are the same JSON (same fields with the same optionality and
 * shapes, or the same enum values).
 */
export function compareTypes(before: IdlJsonType, oldContract: Contract, after: IdlJsonType, newContract: Contract): TypeComparison {
  // Compared as JSON, not as text: a declared struct `date` and the built-in `date` read alike.
  if (JSON.stringify(before) === JSON.stringify(after)) {
    // One name, but an enum in one contract and a struct in the other: a string became an object.
    // So is a struct turned into a union of one name, or back.
    const name = namedTypeOf(after);
    if (name === undefined) return 'same';
    const sameKind =
      oldContract.enums.has(name) === newContract.enums.has(name) && oldContract.unions.has(name) === newContract.unions.has(name);
    return sameKind ? 'same' : 'different';
  }
  return new ShapeComparer(oldContract, newContract).same(before, after) ? 'same-shape' : 'different';
}

class ShapeComparer {
  /** Pairs of names being compared or found equal: assumed equal, which ends recursive types. */
  private readonly assumed = new Set<string>();

  constructor(
    private readonly oldContract: Contract,
    private readonly newContract: Contract,
  ) {}

  same(before: IdlJsonType, after: IdlJsonType): boolean {
    if ('builtIn' in before) return 'builtIn' in after && before.builtIn === after.builtIn;
    if ('array' in before) return 'array' in after && this.same(before.array, after.array);
    if ('mapValue' in before) return 'mapValue' in after && this.same(before.mapValue, after.mapValue);
    return 'userDefined' in after && this.sameNamed(before.userDefined, after.userDefined);
  }

  private sameNamed(oldName: string, newName: string): boolean {
    const pair = JSON.stringify([oldName, newName]);
    if (this.assumed.has(pair)) return true;
    this.assumed.add(pair);
    const oldEnum = this.oldContract.enums.get(oldName);
    const newEnum = this.newContract.enums.get(newName);
    if (oldEnum || newEnum) {
      if (!oldEnum || !newEnum || oldEnum.values.size !== newEnum.values.size) return false;
      return [...oldEnum.values.keys()].every((value) => newEnum.values.has(value));
    }
    const oldUnion = this.oldContract.unions.get(oldName);
    const newUnion = this.newContract.unions.get(newName);
    if (oldUnion || newUnion) {
      if (
        !oldUnion ||
        !newUnion ||
        oldUnion.discriminator !== newUnion.discriminator ||
        oldUnion.variants.size !== newUnion.variants.size
      ) {
        return false;
      }
      return [...oldUnion.variants].every(([tag, variant]) => {
        const other = newUnion.variants.get(tag);
        return other !== undefined && this.sameNamed(variant.type, other.type);
      });
    }
    const oldFields = allContractFields(this.oldContract, oldName);
    const newFields = allContractFields(this.newContract, newName);
    if (!oldFields || !newFields || oldFields.size !== newFields.size) return false;
    for (const [name, field] of oldFields) {
      const other = newFields.get(name);
      if (!other || other.optional !== field.optional || !this.same(field.type, other.type)) return false;
    }
    return true;
  }
}

/**
 * A struct's fields by name, inherited ones included, or undefined when it is no struct of the
 * contract. An `extends` cycle (impossible in a checked model, possible in hand-made JSON) ends
 * the walk.
 */
export function allContractFields(contract: Contract, structName: string): Map<string, ContractField> | undefined {
  const first = contract.structs.get(structName);
  if (!first) return undefined;
  const chain = [first];
  const seen = new Set([structName]);
  for (let parent = first.extends; parent !== undefined && !seen.has(parent); ) {
    seen.add(parent);
    const struct = contract.structs.get(parent);
    if (!struct) break;
    chain.push(struct);
    parent = struct.extends;
  }
  const fields = new Map<string, ContractField>();
  for (const struct of chain.reverse()) for (const [name, field] of struct.fields) fields.set(name, field);
  return fields;
}
