/**
 * Where the values of each struct and enum travel: in requests (a method's parameters), in
 * responses (its return value), both, or neither. A type travels wherever a type that holds it
 * travels: through fields, arrays, maps, and `extends` (a child's value carries its parent's
 * fields, so the parent travels wherever the child does). Declared errors carry no typed data in
 * this IDL, so they add no direction.
 *
 * The rules of rules.ts take this into account: a required field added to a struct only clients
 * send cannot reach an old client, a field removed from one only servers send can.
 */
import type { IdlJsonType } from '../../runtime/idl-json.js';
import type { Contract } from './contract.js';

export interface TravelDirection {
  request: boolean;
  response: boolean;
}

export const UNUSED: TravelDirection = { request: false, response: false };

/** The direction of every struct and enum of the contract that travels at all. */
export function travelDirections(contract: Contract): Map<string, TravelDirection> {
  const directions = new Map<string, TravelDirection>();
  const pending: { name: string; way: keyof TravelDirection }[] = [];
  const reach = (type: IdlJsonType, way: keyof TravelDirection) => {
    const name = namedTypeOf(type);
    if (name !== undefined) pending.push({ name, way });
  };
  for (const iface of contract.interfaces.values()) {
    for (const method of iface.methods.values()) {
      for (const parameter of method.parameters) reach(parameter.type, 'request');
      reach(method.returnType, 'response');
    }
  }
  // Each (type, way) is expanded once: linear in the size of the contract, cycles included.
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { name, way } = next;
    const direction = directions.get(name) ?? { request: false, response: false };
    if (direction[way]) continue;
    direction[way] = true;
    directions.set(name, direction);
    // A union's values are its variants' structs (plus the tag).
    for (const variant of contract.unions.get(name)?.variants.values() ?? []) pending.push({ name: variant.type, way });
    const struct = contract.structs.get(name);
    if (!struct) continue;
    if (struct.extends !== undefined) pending.push({ name: struct.extends, way });
    for (const field of struct.fields.values()) reach(field.type, way);
  }
  return directions;
}

/** Both contracts' directions joined: a type is checked for every way it travels in either. */
export function joinedDirection(
  oldDirections: ReadonlyMap<string, TravelDirection>,
  newDirections: ReadonlyMap<string, TravelDirection>,
  name: string,
): TravelDirection {
  const before = oldDirections.get(name) ?? UNUSED;
  const after = newDirections.get(name) ?? UNUSED;
  return { request: before.request || after.request, response: before.response || after.response };
}

/** The struct or enum a type expression names, through arrays and maps. */
export function namedTypeOf(type: IdlJsonType): string | undefined {
  if ('userDefined' in type) return type.userDefined;
  if ('array' in type) return namedTypeOf(type.array);
  if ('mapValue' in type) return namedTypeOf(type.mapValue);
  return undefined;
}

/** How a direction reads in a message: `requests`, `responses`, `requests and responses`, or undefined. */
export function directionText(direction: TravelDirection): string | undefined {
  if (direction.request && direction.response) return 'requests and responses';
  if (direction.request) return 'requests';
  if (direction.response) return 'responses';
  return undefined;
}
