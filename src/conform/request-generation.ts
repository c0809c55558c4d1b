/**
 * The requests of a method: valid ones drawn from its parameters' types (and checked with the IDL's
 * own validators, so that a request called valid is one the contract accepts), and invalid ones made
 * by breaking a valid one in one place (and checked to be refused by those validators).
 */
import { argumentsAreValid, type MethodUnderTest } from './method-under-test.js';
import { generateValue, type GenerationContext } from './value-generation.js';

/** Draws tried for one valid request before the method is reported as one no valid request was found for. */
const VALID_ATTEMPTS = 50;

/** Valid positional arguments for `target`, or undefined when none was found (a `pattern` too hard to hit). */
export function validArguments(target: MethodUnderTest, context: GenerationContext): unknown[] | undefined {
  for (let attempt = 0; attempt < VALID_ATTEMPTS; attempt++) {
    const args = drawArguments(target, context);
    if (argumentsAreValid(target, args)) return args;
  }
  return undefined;
}

function drawArguments(target: MethodUnderTest, context: GenerationContext): unknown[] {
  const parameters = target.method.parameters ?? [];
  const args = parameters.map((parameter) => {
    if (parameter.optional && context.random.chance(0.3)) return context.random.chance(0.5) ? null : undefined;
    return generateValue(parameter.type, parameter.constraints, context, undefined);
  });
  // Trailing optional parameters left out are left out of the array too (the positional form allows it).
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return args.map((value) => (value === undefined ? null : value));
}

/** An invalid request: its arguments and what was broken, in words. */
export interface InvalidArguments {
  args: unknown[];
  mutation: string;
}

/** Breaks `valid` in one place so that the IDL refuses it; undefined when no break is found. */
export function invalidArguments(
  target: MethodUnderTest,
  valid: readonly unknown[],
  context: GenerationContext,
): InvalidArguments | undefined {
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = mutate(target, valid, context);
    if (candidate && !argumentsAreValid(target, candidate.args)) return candidate;
  }
  return undefined;
}

function mutate(target: MethodUnderTest, valid: readonly unknown[], context: GenerationContext): InvalidArguments | undefined {
  const { random } = context;
  const parameters = target.method.parameters ?? [];
  const required = parameters.filter((p) => !p.optional).length;
  const choice = random.int(0, 3);
  if (choice === 0 || parameters.length === 0)
    return { args: [...valid, ...Array(parameters.length - valid.length).fill(null), 'unexpected'], mutation: 'one parameter too many' };
  if (choice === 1 && required > 0)
    return { args: valid.slice(0, required - 1), mutation: `parameter ${parameters[required - 1].name} left out` };
  const args = structuredClone([...valid]) as unknown[];
  const paths = valuePaths(args, []);
  if (paths.length === 0) return undefined;
  const path = random.pick(paths);
  if (choice === 2) {
    const removable = paths.filter((p) => typeof p[p.length - 1] === 'string');
    if (removable.length > 0) {
      const key = random.pick(removable);
      const parent = valueAt(args, key.slice(0, -1)) as Record<string, unknown>;
      delete parent[key[key.length - 1] as string];
      return { args, mutation: `${describePath(key)} left out` };
    }
  }
  const current = valueAt(args, path);
  const replacement = wrongKindOf(current, random.int(0, 3));
  setValueAt(args, path, replacement);
  return { args, mutation: `${describePath(path)} replaced by ${JSON.stringify(replacement)}` };
}

type Path = (string | number)[];

/** Every path into the arguments (each argument, each element, each member), the arguments themselves excluded. */
function valuePaths(value: unknown, prefix: Path): Path[] {
  const paths: Path[] = [];
  const visit = (node: unknown, path: Path) => {
    if (path.length > 0) paths.push(path);
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, [...path, i]);
    } else if (node !== null && typeof node === 'object') for (const [key, item] of Object.entries(node)) visit(item, [...path, key]);
  };
  visit(value, prefix);
  return paths;
}

function valueAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

function setValueAt(root: unknown, path: Path, value: unknown): void {
  (valueAt(root, path.slice(0, -1)) as Record<string | number, unknown>)[path[path.length - 1]] = value;
}

/** A value of another JSON kind than `value`. */
function wrongKindOf(value: unknown, pick: number): unknown {
  const candidates: unknown[] =
    typeof value === 'string' ? [12, true, {}, null] : typeof value === 'number' ? ['12', true, [], 1.5] : ['x', 7, false, []];
  // 1.5 is wrong only for an int: for a float the validators say it is fine, and another draw is taken.
  return candidates[pick % candidates.length];
}

function describePath(path: Path): string {
  return `params${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('')}`;
}
