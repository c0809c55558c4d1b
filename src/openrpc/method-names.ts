/**
 * OpenRPC method names -> IDL interfaces and methods (docs/openrpc.md, "Method names"). A server
 * finds a call's interface and method by splitting the name at its last dot, so `Pets.list` is
 * method `list` of interface `Pets` and keeps its wire name. A name without a dot (`list_pets`)
 * names no interface: it goes into one interface named after `info.title`, which changes its wire
 * name to `<Title>.list_pets`; that, and any other change of a wire name, is warned once per method.
 */
import { camelCaseName, isValidIdentifier, NameScope, typeName } from '../openapi/names.js';
import { displayPointer, child } from '../openapi/source-documents.js';
import type { WarningSink } from '../openapi/warnings.js';
import type { OpenRpcMethod } from './openrpc-document.js';

/** Where a method goes in the IDL. */
export interface MethodPlace {
  interfaceName: string;
  methodName: string;
}

/** A method whose wire name changes: the name in the document and the one the IDL gives it. */
export interface RenamedMethod {
  from: string;
  to: string;
}

/** The names of the JSON-RPC specification's own methods (`rpc.discover`), which no interface may take. */
const RESERVED_PREFIX = 'rpc';

/** A method name split at its last dot; no `interfacePart` without a dot (or with nothing on one side). */
function split(name: string): { interfacePart?: string; methodPart: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { methodPart: name };
  return { interfacePart: name.slice(0, dot), methodPart: name.slice(dot + 1) };
}

/**
 * Places every method: its interface and method names, claimed in `topNames` (interfaces) and per
 * interface (methods). Interfaces named by the document are claimed first, in document order, then
 * the title's. Returns one place per method (undefined: a reserved `rpc.` method, dropped with a
 * warning) and the methods whose wire name changes.
 */
export function placeMethods(
  methods: readonly OpenRpcMethod[],
  title: string,
  topNames: NameScope,
  sink: WarningSink,
): { places: (MethodPlace | undefined)[]; renamed: RenamedMethod[] } {
  const interfaceNames = new Map<string, string>();
  const parts = methods.map((m) => split(m.name));
  // Collected per method and reported in document order, though methods are placed in another.
  const messages: (string | undefined)[] = new Array(methods.length);
  for (const { interfacePart } of parts) {
    if (interfacePart === undefined || interfacePart === RESERVED_PREFIX || interfaceNames.has(interfacePart)) continue;
    interfaceNames.set(interfacePart, topNames.claim(typeName(interfacePart)));
  }
  const titleName = typeName(/[A-Za-z0-9]/.test(title) ? title : 'Api');
  const titleInterface = () => {
    let name = [...interfaceNames.values()].find((n) => n === titleName);
    name ??= topNames.claim(titleName);
    return name;
  };
  let titleClaimed: string | undefined;

  const scopes = new Map<string, NameScope>();
  const scopeOf = (name: string) => scopes.get(name) ?? scopes.set(name, new NameScope()).get(name)!;
  const places: (MethodPlace | undefined)[] = new Array(methods.length);
  const renamed: (RenamedMethod | undefined)[] = new Array(methods.length);
  // Methods that keep their interface first: a renamed one gives way to them.
  const order = [...methods.keys()].sort(
    (a, b) => Number(parts[a].interfacePart === undefined) - Number(parts[b].interfacePart === undefined),
  );
  for (const i of order) {
    const method = methods[i];
    const { interfacePart, methodPart } = parts[i];
    if (interfacePart === RESERVED_PREFIX) {
      messages[i] =
        `method "${method.name}" dropped: names starting with "rpc." are reserved for the JSON-RPC specification's own methods (the server answers rpc.discover itself)`;
      continue;
    }
    const interfaceName = interfacePart !== undefined ? interfaceNames.get(interfacePart)! : (titleClaimed ??= titleInterface());
    const methodName = scopeOf(interfaceName).claim(isValidIdentifier(methodPart) ? methodPart : camelCaseName(methodPart));
    places[i] = { interfaceName, methodName };
    const to = `${interfaceName}.${methodName}`;
    if (to === method.name) continue;
    renamed[i] = { from: method.name, to };
    messages[i] =
      interfacePart === undefined
        ? `method "${method.name}" has no dot: servers split method names at the last dot, so it becomes method ${methodName} of interface ${interfaceName} (after info.title), called "${to}"`
        : `method "${method.name}" is not <Interface>.<method> in valid unique IDL identifiers; written as method ${methodName} of interface ${interfaceName}, called "${to}"`;
  }
  messages.forEach((message, i) => {
    if (message !== undefined) sink.warn(displayPointer(child(methods[i].site, 'name')), message);
  });
  return { places, renamed: renamed.filter((r) => r !== undefined) };
}
