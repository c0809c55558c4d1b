/**
 * The comparison itself: every difference between an old and a new contract, each as a change with
 * its rule, the level it breaks at (for the directions its types travel in), the qualified name it
 * is about, a plain message and where it is written (in the new file; in the old one for removals).
 *
 * Parameters are compared by position and by name: the contract checksum sorts them by name and
 * cannot see two of them swapped (docs/idl.md), positional callers can.
 */
import type { IdlJsonType } from '../../runtime/idl-json.js';
import { constraintChanges, defaultChange } from './attribute-diff.js';
import type { ChangeLocation, Contract, ContractAttributes, ContractField, ContractMethod, ContractParameter } from './contract.js';
import { directionText, joinedDirection, travelDirections, type TravelDirection, UNUSED } from './directions.js';
import type { ChangeLevel } from './levels.js';
import { type RuleId, ruleLevel } from './rules.js';
import { allContractFields, compareTypes, typeText } from './type-shape.js';

/** One difference between the contracts. */
export interface ContractChange {
  rule: RuleId;
  level: ChangeLevel;
  /** The qualified name of what changed: `Cart`, `Cart.items`, `CartService.addToCart.cartId`, ... */
  subject: string;
  message: string;
  location: ChangeLocation;
}

/** Every change from `oldContract` to `newContract`, in the order of the new contract (removals after what they sat among). */
export function compareContracts(oldContract: Contract, newContract: Contract): ContractChange[] {
  return new ContractComparison(oldContract, newContract).run();
}

class ContractComparison {
  private readonly changes: ContractChange[] = [];
  private readonly oldDirections: Map<string, TravelDirection>;
  private readonly newDirections: Map<string, TravelDirection>;

  constructor(
    private readonly before: Contract,
    private readonly after: Contract,
  ) {
    this.oldDirections = travelDirections(before);
    this.newDirections = travelDirections(after);
  }

  run(): ContractChange[] {
    if (this.before.namespace !== this.after.namespace) {
      this.add(
        'namespace-changed',
        this.after.namespace,
        `namespace '${this.before.namespace}' is renamed to '${this.after.namespace}'`,
        this.after.namespaceLocation,
      );
    }
    this.compareInterfaces();
    this.compareStructs();
    this.compareEnums();
    this.compareUnions();
    this.compareErrors();
    this.compareDeprecations();
    return this.changes;
  }

  /**
   * `deprecated` (safe) for each item that both contracts hold and that only the new one marks
   * `@deprecated`: a warning to clients before a removal. Removing the mark reports nothing.
   */
  private compareDeprecations(): void {
    const newly = (before: { deprecated?: true } | undefined, after: { deprecated?: true }) =>
      before !== undefined && after.deprecated === true && before.deprecated !== true;
    const report = (kind: string, subject: string, location: ChangeLocation) =>
      this.add('deprecated', subject, `${kind} ${subject} is deprecated`, location);
    for (const [name, iface] of this.after.interfaces) {
      const old = this.before.interfaces.get(name);
      if (newly(old, iface)) report('interface', name, iface.location);
      for (const [methodName, method] of iface.methods) {
        if (newly(old?.methods.get(methodName), method)) report('method', `${name}.${methodName}`, method.location);
      }
    }
    for (const [name, struct] of this.after.structs) {
      const old = this.before.structs.get(name);
      if (newly(old, struct)) report('struct', name, struct.location);
      for (const [fieldName, field] of struct.fields) {
        if (newly(old?.fields.get(fieldName), field)) report('field', `${name}.${fieldName}`, field.location);
      }
    }
    for (const [name, enumDecl] of this.after.enums) {
      if (newly(this.before.enums.get(name), enumDecl)) report('enum', name, enumDecl.location);
    }
  }

  private add(rule: RuleId, subject: string, message: string, location: ChangeLocation, direction: TravelDirection = UNUSED): void {
    this.changes.push({ rule, level: ruleLevel(rule, direction), subject, message, location });
  }

  private direction(typeName: string): TravelDirection {
    return joinedDirection(this.oldDirections, this.newDirections, typeName);
  }

  private compareInterfaces(): void {
    for (const [name, iface] of this.after.interfaces) {
      const old = this.before.interfaces.get(name);
      if (!old) {
        this.add('interface-added', name, `interface ${name} is added; handler objects must implement it`, iface.location);
        continue;
      }
      for (const [methodName, method] of iface.methods) {
        const oldMethod = old.methods.get(methodName);
        const subject = `${name}.${methodName}`;
        if (oldMethod) this.compareMethod(subject, oldMethod, method);
        else this.add('method-added', subject, `method ${subject} is added; handlers must implement it`, method.location);
      }
      for (const [methodName, method] of old.methods) {
        if (!iface.methods.has(methodName)) {
          const subject = `${name}.${methodName}`;
          this.add('method-removed', subject, `method ${subject} is removed; old clients still call it`, method.location);
        }
      }
    }
    for (const [name, iface] of this.before.interfaces) {
      if (!this.after.interfaces.has(name)) {
        this.add('interface-removed', name, `interface ${name} is removed; old clients still call its methods`, iface.location);
      }
    }
  }

  private compareMethod(subject: string, before: ContractMethod, after: ContractMethod): void {
    // A @readonly method is also served over GET (docs/protocol.md, "Reads over GET"): clients sending
    // its calls as GETs, and URLs kept by caches, get 405 once the mark is gone.
    if (before.readonly === true && after.readonly !== true && after.stream !== true) {
      this.add(
        'readonly-removed',
        subject,
        `method ${subject} is no longer @readonly: its GETs (reads over GET) answer 405`,
        after.location,
      );
    }
    this.compareParameters(subject, before, after);
    const results = { constraints: before.returnConstraints };
    this.compareAttributes(
      `the result of ${subject}`,
      subject,
      results,
      { constraints: after.returnConstraints },
      after.location,
      RESPONSE,
    );
    const returns = compareTypes(before.returnType, this.before, after.returnType, this.after);
    if (returns !== 'same') {
      this.typeChange(
        'return-type-changed',
        subject,
        `the return type of ${subject}`,
        before.returnType,
        after.returnType,
        returns,
        after.location,
      );
    }
    if (before.stream !== after.stream) {
      const change = after.stream
        ? `${subject} becomes a stream; old clients expect one JSON result, not events`
        : `${subject} is no longer a stream; old clients expect events, not one JSON result`;
      this.add('method-stream-changed', subject, change, after.location);
    }
    if (!before.returnOptional && after.returnOptional) {
      this.add('return-made-optional', subject, `${subject} may now return null; old clients expect a value`, after.location);
    } else if (before.returnOptional && !after.returnOptional) {
      this.add(
        'return-made-required',
        subject,
        `${subject} no longer returns null; handlers that return null stop compiling`,
        after.location,
      );
    }
    for (const raised of after.raises) {
      if (!before.raises.includes(raised))
        this.add('raises-added', `${subject}.${raised}`, `${subject} now raises ${raised}`, after.location);
    }
    for (const raised of before.raises) {
      if (!after.raises.includes(raised))
        this.add('raises-removed', `${subject}.${raised}`, `${subject} no longer raises ${raised}`, after.location);
    }
  }

  /** By name first, then the unmatched ones by position (renames), then the order of those kept. */
  private compareParameters(subject: string, before: ContractMethod, after: ContractMethod): void {
    const oldNames = new Set(before.parameters.map((p) => p.name));
    const newNames = new Set(after.parameters.map((p) => p.name));
    const oldByName = new Map(before.parameters.map((p) => [p.name, p]));
    for (const parameter of after.parameters) {
      const old = oldByName.get(parameter.name);
      if (old) {
        this.compareParameterType(`${subject}.${parameter.name}`, old, parameter);
        this.compareParameterAttributes(`${subject}.${parameter.name}`, old, parameter);
      }
    }
    const oldOnly = before.parameters.map((p, index) => ({ p, index })).filter(({ p }) => !newNames.has(p.name));
    const newOnly = after.parameters.map((p, index) => ({ p, index })).filter(({ p }) => !oldNames.has(p.name));
    const renamedFrom = new Map<number, ContractParameter>();
    for (const { p, index } of oldOnly) if (newOnly.some((n) => n.index === index)) renamedFrom.set(index, p);
    for (const { p, index } of newOnly) {
      const old = renamedFrom.get(index);
      const name = `${subject}.${p.name}`;
      if (old) {
        this.add(
          'param-renamed',
          name,
          `parameter ${index + 1} of ${subject} is renamed from '${old.name}' to '${p.name}'; REST clients (and JSON-RPC clients passing named params) send the old name`,
          p.location,
        );
        this.compareParameterType(name, old, p);
      } else if (p.optional && index >= before.parameters.length) {
        // After every old one: positional callers that leave it out still call correctly.
        this.add('param-added-optional', name, `optional parameter '${p.name}' is added to ${subject} after the others`, p.location);
      } else {
        this.add('param-added', name, `parameter '${p.name}' is added to ${subject}; old clients do not send it`, p.location);
      }
    }
    for (const { p, index } of oldOnly) {
      if (!renamedFrom.has(index)) {
        this.add(
          'param-removed',
          `${subject}.${p.name}`,
          `parameter '${p.name}' is removed from ${subject}; old clients still send it`,
          p.location,
        );
      }
    }
    const keptInOldOrder = before.parameters.filter((p) => newNames.has(p.name)).map((p) => p.name);
    const keptInNewOrder = after.parameters.filter((p) => oldNames.has(p.name)).map((p) => p.name);
    if (keptInOldOrder.join(',') !== keptInNewOrder.join(',')) {
      this.add(
        'param-reordered',
        subject,
        `the parameters of ${subject} change order from (${keptInOldOrder.join(', ')}) to (${keptInNewOrder.join(', ')}); old clients pass them by position`,
        after.location,
      );
    }
  }

  /** Optional or required, default, constraints: a parameter travels in requests. */
  private compareParameterAttributes(subject: string, before: ContractParameter, after: ContractParameter): void {
    if (before.optional && !after.optional) {
      this.add('param-made-required', subject, `parameter ${subject} becomes required; old clients may leave it out`, after.location);
    } else if (!before.optional && after.optional) {
      this.add('param-made-optional', subject, `parameter ${subject} becomes optional; handlers may now get undefined`, after.location);
    }
    this.compareAttributes(`parameter ${subject}`, subject, before, after, after.location, REQUEST);
  }

  /** The default and constraints of a field, parameter (or, constraints only, a return). */
  private compareAttributes(
    what: string,
    subject: string,
    before: ContractAttributes,
    after: ContractAttributes,
    location: ChangeLocation,
    direction: TravelDirection,
  ): void {
    const fallback = defaultChange(before.default, after.default);
    if (fallback === 'added') this.add('default-added', subject, `${what} gets the default ${text(after.default)}`, location, direction);
    if (fallback === 'removed') {
      this.add(
        'default-removed',
        subject,
        `${what} loses its default ${text(before.default)}; old clients leaving it out no longer get it`,
        location,
        direction,
      );
    }
    if (fallback === 'changed') {
      this.add(
        'default-changed',
        subject,
        `the default of ${what} changes from ${text(before.default)} to ${text(after.default)}`,
        location,
        direction,
      );
    }
    const changes = constraintChanges(before.constraints, after.constraints);
    if (changes.tightened.length > 0) {
      this.add('constraint-tightened', subject, `${what} accepts fewer values: ${changes.tightened.join(', ')}`, location, direction);
    }
    if (changes.loosened.length > 0) {
      this.add('constraint-loosened', subject, `${what} accepts more values: ${changes.loosened.join(', ')}`, location, direction);
    }
    if (changes.changed.length > 0) {
      this.add('constraint-changed', subject, `${what} accepts other values: ${changes.changed.join(', ')}`, location, direction);
    }
  }

  private compareParameterType(subject: string, before: ContractParameter, after: ContractParameter): void {
    const comparison = compareTypes(before.type, this.before, after.type, this.after);
    if (comparison !== 'same') {
      this.typeChange(
        'param-type-changed',
        subject,
        `the type of parameter ${subject}`,
        before.type,
        after.type,
        comparison,
        after.location,
      );
    }
  }

  private typeChange(
    rule: 'param-type-changed' | 'return-type-changed' | 'field-type-changed',
    subject: string,
    what: string,
    before: IdlJsonType,
    after: IdlJsonType,
    comparison: 'same-shape' | 'different',
    location: ChangeLocation,
    direction: TravelDirection = UNUSED,
  ): void {
    let [from, to] = [typeText(before), typeText(after)];
    // A declared struct or enum `date` and the built-in `date` (docs/idl.md, "Built-in types").
    if (from === to) [from, to] = [typeText(before, true), typeText(after, true)];
    const change = `${what} changes from ${from} to ${to}`;
    if (comparison === 'same-shape') this.add('type-renamed', subject, `${change}, which have the same JSON shape`, location, direction);
    else this.add(rule, subject, change, location, direction);
  }

  private compareStructs(): void {
    for (const [name, struct] of this.after.structs) {
      const old = this.before.structs.get(name);
      if (!old) {
        // A union turned into a struct is reported by compareUnions.
        if (!this.before.unions.has(name)) this.add('struct-added', name, `struct ${name} is added`, struct.location);
        continue;
      }
      if (old.extends !== struct.extends) {
        const parent = (p: string | undefined) => (p === undefined ? 'no parent' : p);
        this.add(
          'struct-extends-changed',
          name,
          `struct ${name} now extends ${parent(struct.extends)} instead of ${parent(old.extends)}`,
          struct.location,
        );
      }
      this.compareFields(name, struct.location);
    }
    for (const [name, struct] of this.before.structs) {
      // A struct turned into a union is reported by compareUnions.
      if (!this.after.structs.has(name) && !this.after.unions.has(name))
        this.add('struct-removed', name, `struct ${name} is removed`, struct.location);
    }
  }

  /** Inherited fields included: what a value of the struct holds is what old clients see. */
  private compareFields(structName: string, structLocation: ChangeLocation): void {
    const oldFields = allContractFields(this.before, structName) ?? new Map<string, ContractField>();
    const newFields = allContractFields(this.after, structName) ?? new Map<string, ContractField>();
    const direction = this.direction(structName);
    const travels = directionText(direction);
    const where = travels ? `, which travels in ${travels}` : ', which no method uses';
    const inherited = (field: ContractField, contract: Contract) =>
      contract.structs.get(structName)?.fields.has(field.name) ? '' : ' (inherited)';
    for (const [fieldName, field] of newFields) {
      const subject = `${structName}.${fieldName}`;
      const old = oldFields.get(fieldName);
      const location = field.location.line === undefined ? structLocation : field.location;
      if (!old) {
        if (field.optional)
          this.add('field-added-optional', subject, `optional field ${subject}${inherited(field, this.after)} is added`, location);
        else {
          this.add(
            'field-added-required',
            subject,
            `required field ${subject}${inherited(field, this.after)} is added to struct ${structName}${where}${direction.request ? ': old clients do not send it' : ''}`,
            location,
            direction,
          );
        }
        continue;
      }
      const comparison = compareTypes(old.type, this.before, field.type, this.after);
      if (comparison !== 'same') {
        this.typeChange(
          'field-type-changed',
          subject,
          `the type of field ${subject}`,
          old.type,
          field.type,
          comparison,
          location,
          direction,
        );
      }
      this.compareAttributes(`field ${subject}`, subject, old, field, location, direction);
      if (!old.optional && field.optional) {
        this.add(
          'field-made-optional',
          subject,
          `field ${subject} becomes optional${where}${direction.response ? ': old clients expect it' : ''}`,
          location,
          direction,
        );
      } else if (old.optional && !field.optional) {
        this.add(
          'field-made-required',
          subject,
          `field ${subject} becomes required${where}${direction.request ? ': old clients may leave it out' : ''}`,
          location,
          direction,
        );
      }
    }
    for (const [fieldName, field] of oldFields) {
      if (newFields.has(fieldName)) continue;
      const subject = `${structName}.${fieldName}`;
      if (field.optional) this.add('optional-field-removed', subject, `optional field ${subject} is removed`, field.location, direction);
      else {
        const effect = direction.response ? ': old clients expect it' : '';
        this.add(
          'field-removed',
          subject,
          `required field ${subject} is removed from struct ${structName}${where}${effect}`,
          field.location,
          direction,
        );
      }
    }
  }

  private compareEnums(): void {
    for (const [name, enumDecl] of this.after.enums) {
      const old = this.before.enums.get(name);
      if (!old) {
        this.add('enum-added', name, `enum ${name} is added`, enumDecl.location);
        continue;
      }
      const direction = this.direction(name);
      const travels = directionText(direction);
      const where = travels ? `, which travels in ${travels}` : ', which no method uses';
      for (const [value, location] of enumDecl.values) {
        if (!old.values.has(value)) {
          const effect = direction.response ? ': old clients may receive a value they do not know' : '';
          this.add('enum-value-added', `${name}.${value}`, `value ${value} is added to enum ${name}${where}${effect}`, location, direction);
        }
      }
      for (const [value, location] of old.values) {
        if (!enumDecl.values.has(value)) {
          const effect = direction.request ? ': old clients may still send it' : '';
          this.add(
            'enum-value-removed',
            `${name}.${value}`,
            `value ${value} is removed from enum ${name}${where}${effect}`,
            location,
            direction,
          );
        }
      }
    }
    for (const [name, enumDecl] of this.before.enums) {
      if (!this.after.enums.has(name)) this.add('enum-removed', name, `enum ${name} is removed`, enumDecl.location);
    }
  }

  /**
   * Unions (docs/breaking.md, "Unions"): variants by tag. A change inside a variant's struct is
   * reported on the struct, which travels wherever the union does (directions.ts).
   */
  private compareUnions(): void {
    for (const [name, union] of this.after.unions) {
      const old = this.before.unions.get(name);
      const direction = this.direction(name);
      const travels = directionText(direction);
      const where = travels ? `, which travels in ${travels}` : ', which no method uses';
      if (!old) {
        if (this.before.structs.has(name)) {
          this.add(
            'struct-made-union',
            name,
            `struct ${name} becomes a union${where}: its values now carry a tag`,
            union.location,
            direction,
          );
        } else this.add('union-added', name, `union ${name} is added`, union.location);
        continue;
      }
      if (old.discriminator !== union.discriminator) {
        this.add(
          'union-discriminator-changed',
          name,
          `the discriminator of union ${name} changes from '${old.discriminator}' to '${union.discriminator}'${where}`,
          union.location,
          direction,
        );
      }
      for (const [tag, variant] of union.variants) {
        const subject = `${name}.${tag}`;
        const before = old.variants.get(tag);
        if (!before) {
          const effect = direction.response ? ': old clients may receive a tag they do not know' : '';
          this.add(
            'union-variant-added',
            subject,
            `variant ${tag} is added to union ${name}${where}${effect}`,
            variant.location,
            direction,
          );
          continue;
        }
        const comparison = compareTypes({ userDefined: before.type }, this.before, { userDefined: variant.type }, this.after);
        if (comparison === 'same-shape') {
          this.add(
            'type-renamed',
            subject,
            `variant ${subject} changes from ${before.type} to ${variant.type}, which have the same JSON shape`,
            variant.location,
            direction,
          );
        } else if (comparison === 'different') {
          this.add(
            'union-variant-type-changed',
            subject,
            `variant ${subject} changes from ${before.type} to ${variant.type}${where}`,
            variant.location,
            direction,
          );
        }
      }
      for (const [tag, variant] of old.variants) {
        if (union.variants.has(tag)) continue;
        const effect = direction.request ? ': old clients may still send it' : '';
        this.add(
          'union-variant-removed',
          `${name}.${tag}`,
          `variant ${tag} is removed from union ${name}${where}${effect}`,
          variant.location,
          direction,
        );
      }
    }
    for (const [name, union] of this.before.unions) {
      if (this.after.unions.has(name)) continue;
      if (this.after.structs.has(name)) {
        const direction = this.direction(name);
        const travels = directionText(direction);
        const where = travels ? `, which travels in ${travels}` : ', which no method uses';
        this.add(
          'struct-made-union',
          name,
          `union ${name} becomes a struct${where}: its values no longer carry a tag`,
          this.after.structs.get(name)!.location,
          direction,
        );
      } else this.add('union-removed', name, `union ${name} is removed`, union.location);
    }
  }

  private compareErrors(): void {
    for (const [name, error] of this.after.errors) {
      const old = this.before.errors.get(name);
      if (!old) {
        this.add('error-added', name, `error ${name} (code ${error.code}) is added`, error.location);
        continue;
      }
      if (old.code !== error.code) {
        this.add('error-code-changed', name, `the code of error ${name} changes from ${old.code} to ${error.code}`, error.location);
      }
      if (old.message !== error.message) {
        this.add('error-message-changed', name, `the message of error ${name} changes to ${JSON.stringify(error.message)}`, error.location);
      }
    }
    for (const [name, error] of this.before.errors) {
      if (!this.after.errors.has(name)) this.add('error-removed', name, `error ${name} (code ${error.code}) is removed`, error.location);
    }
  }
}

/** Values travelling in requests only (parameters), and in responses only (results). */
const REQUEST: TravelDirection = { request: true, response: false };
const RESPONSE: TravelDirection = { request: false, response: true };

function text(fallback: { value: unknown } | undefined): string {
  return JSON.stringify(fallback?.value);
}
