/**
 * Checking that a JSON baseline is the IDL JSON `rpc-idl` serves (runtime/idl-json.ts) before
 * reading it, so a wrong file gets a message with the JSON path of its first problem, not a crash.
 */

/** The first problem of `value` as IDL JSON, as `<path>: <what>`, or undefined when it is fine. */
export function idlJsonProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'expected an object';
  if (typeof value.rootNamespace !== 'string') return 'rootNamespace: expected a string';
  const lists: [string, (item: Record<string, unknown>, at: string) => string | undefined][] = [
    ['interfaces', (item, at) => listProblem(item.methods, `${at}.methods`, methodProblem)],
    ['structs', (item, at) => listProblem(item.fields, `${at}.fields`, fieldProblem)],
    ['enums', (item, at) => listProblem(item.values, `${at}.values`, () => undefined)],
    ['errors', (item, at) => (typeof item.code === 'number' ? undefined : `${at}.code: expected a number`)],
  ];
  for (const [key, check] of lists) {
    const problem = listProblem(value[key], key, check);
    if (problem) return problem;
  }
  return undefined;
}

function methodProblem(method: Record<string, unknown>, at: string): string | undefined {
  return (
    listProblem(method.parameters, `${at}.parameters`, (p, pAt) => typeProblem(p.type, `${pAt}.type`)) ??
    typeProblem(method.returnType, `${at}.returnType`) ??
    (method.stream === undefined || method.stream === true ? undefined : `${at}.stream: expected true or nothing`) ??
    (method.raises === undefined || (Array.isArray(method.raises) && method.raises.every((r) => typeof r === 'string'))
      ? undefined
      : `${at}.raises: expected a list of names`)
  );
}

function fieldProblem(field: Record<string, unknown>, at: string): string | undefined {
  return typeProblem(field.type, `${at}.type`);
}

/** Absent, or a list of objects with a string `name`, each passing `check`. */
function listProblem(
  list: unknown,
  at: string,
  check: (item: Record<string, unknown>, at: string) => string | undefined,
): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${at}: expected a list`;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const itemAt = `${at}[${i}]`;
    if (!isObject(item) || typeof item.name !== 'string') return `${itemAt}: expected an object with a name`;
    const problem = check(item, itemAt);
    if (problem) return problem;
  }
  return undefined;
}

function typeProblem(type: unknown, at: string): string | undefined {
  for (let depth = 0; depth < 1000; depth++) {
    if (!isObject(type)) return `${at}: expected a type`;
    if (typeof type.builtIn === 'string' || typeof type.userDefined === 'string') return undefined;
    type = 'array' in type ? type.array : type.mapValue;
  }
  return `${at}: nested too deeply`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
