/**
 * The declarations of `client.ts`: one `<Interface>Client` class per IDL interface.
 */
import type { Method, TypeRef } from '../idl/ast.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { interfaceFingerprints } from '../../runtime/contract-fingerprint.js';
import { wireConversions } from '../../runtime/wire-conversion.js';
import { docTags } from '../idl/doc-tags.js';
import type { IdlModel } from '../idl/model.js';
import { typeOnly, type ClassMember, type Declaration, type Use } from './declarations.js';
import { clientMethodNames, CodegenError, parameterNames, uniqueName, type TypeScriptNames } from './names.js';
import { shortName } from './namespace-view.js';
import { docComment, itemDocComment, stringLiteral, withSummary } from './source-text.js';
import { resultType, typeScriptType } from './type-mapping.js';

/** The struct and enum names a type mentions, as type-only uses of `types` (or of another namespace's module). */
export function typeUses(type: TypeRef, names: TypeScriptNames): Use[] {
  switch (type.kind) {
    case 'builtIn':
      return [];
    case 'array':
      return typeUses(type.element, names);
    case 'map':
      return typeUses(type.value, names);
    case 'named':
      return [names.use(type.name, false)];
  }
}

/**
 * `RpcPromise<Result, { ErrorName: ErrorClass; ... }>` (`RpcStream<Item, ...>` for a stream method):
 * the method's result and its declared errors by IDL name (the `kind` that `settle` gives them), so
 * their type is part of the method's.
 */
function callType(
  wrapper: 'RpcPromise' | 'RpcStream',
  result: string,
  raises: readonly { text: string }[],
  names: TypeScriptNames,
): string {
  if (raises.length === 0) return `${wrapper}<${result}>`;
  // Errors of two namespaces may share a name (common.NotFound and NotFound): one kind, either class.
  const byName = new Map<string, string[]>();
  for (const raised of raises) {
    const name = shortName(raised.text);
    byName.set(name, [...(byName.get(name) ?? []), names.errorClass(raised.text)]);
  }
  const errors = [...byName].map(([name, classes]) => `${name}: ${classes.join(' | ')}`);
  return `${wrapper}<${result}, { ${errors.join('; ')} }>`;
}

/** The TSDoc lines a stream method's doc comment gets after its own: how to read it and resume. */
const STREAM_DOC = [
  'Streams the items as the server sends them: read them with `for await (const item of ...)`; a',
  'declared error is thrown from the loop. Breaking out of the loop or aborting `options.signal` closes',
  'the connection. After a lost connection the client resumes by itself; to resume later, pass the',
  "stream's `lastEventId` as `options.lastEventId`.",
];

/** The conversions of every method; a union the conversions refuse is a generator error, not a crash. */
function conversionsOf(idlJson: IdlJson): ReturnType<typeof wireConversions> {
  try {
    return wireConversions(idlJson);
  } catch (error) {
    throw new CodegenError((error as Error).message);
  }
}

/**
 * The runtime function a client method calls: streams their own; methods with `timestamp` or
 * `bytes` one that converts them; the others `callMethod`, or, raising nothing, one that leaves out
 * the mapping of errors to declared classes (so a page whose methods raise nothing carries none of it).
 */
function callerOf(method: Method, conversion: unknown): 'streamMethod' | 'callConvertingMethod' | 'callMethod' | 'callMethodWithoutRaises' {
  if (method.stream) return 'streamMethod';
  if (conversion !== undefined) return 'callConvertingMethod';
  return method.raises.length > 0 ? 'callMethod' : 'callMethodWithoutRaises';
}

/** What the client classes take from the whole program's JSON form. */
export interface ClientContracts {
  /** Each interface's contract fingerprint (runtime/contract-fingerprint.ts), sent with every call. */
  fingerprints: ReadonlyMap<string, string>;
  /** The conversions of the methods with `timestamp` or `bytes` values (runtime/wire-conversion.ts). */
  conversions: ReturnType<typeof wireConversions>;
}

/** The {@link ClientContracts} of a program, from its JSON form. */
export function clientContracts(idlJson: IdlJson): ClientContracts {
  return { fingerprints: interfaceFingerprints(idlJson), conversions: conversionsOf(idlJson) };
}

/**
 * One class per interface of `model`. What it reads of the interfaces is what `interfacesKey`
 * (phase-keys.ts) writes down: a new read belongs there too.
 */
export function clientDeclarations(model: IdlModel, names: TypeScriptNames, { fingerprints, conversions }: ClientContracts): Declaration[] {
  return model.interfaces.map((iface): Declaration => {
    const name = names.client(iface.name.text);
    const methodNames = clientMethodNames(iface.methods);
    const uses: Use[] = [
      { from: 'runtimeClient', name: 'Transport', typeOnly: true },
      { from: 'runtimeClient', name: 'CallOptions', typeOnly: true },
      { from: 'runtimeClient', name: 'RpcPromise', typeOnly: true },
    ];
    // Only what some method calls is imported: clients without timestamp or bytes stay as they were.
    // A stream method calls streamMethod, which converts its items itself; so does its import.
    const callers = new Set(iface.methods.map((method) => callerOf(method, conversions.get(`${iface.name.text}.${method.name.text}`))));
    // An interface without methods imports callMethod as it always has.
    if (iface.methods.length === 0) callers.add('callMethod');
    for (const caller of ['callMethod', 'callMethodWithoutRaises'] as const)
      if (callers.has(caller)) uses.push({ from: 'runtimeClient', name: caller, typeOnly: false });
    if (callers.has('callConvertingMethod')) uses.push({ from: 'runtime', name: 'callConvertingMethod', typeOnly: false });
    const plain = iface.methods.filter((method) => !method.stream);
    if (plain.length < iface.methods.length) {
      uses.push(
        { from: 'runtimeClient', name: 'streamMethod', typeOnly: false },
        { from: 'runtimeClient', name: 'RpcStream', typeOnly: true },
        { from: 'runtimeClient', name: 'StreamOptions', typeOnly: true },
      );
    }
    const methods = iface.methods.map((method, index): ClassMember => {
      const errors = method.raises.map((raised) => names.errorClass(raised.text));
      const wireName = `${iface.name.text}.${method.name.text}`;
      // Methods with timestamp or bytes convert Date and Uint8Array values (runtime/wire-conversion.ts).
      const conversion = conversions.get(wireName);
      const caller = callerOf(method, conversion);
      // Parameters must not hide what the body calls.
      const calls = [caller, ...errors];
      const parameterList = parameterNames(method.parameters, calls);
      const parameters = method.parameters.map((p, i) => ({
        name: parameterList[i],
        type: typeScriptType(p.type, names),
        ...(p.optional === true ? { optional: true } : {}),
      }));
      const options = uniqueName('options', new Set([...calls, ...parameterList]));
      const required = method.parameters.filter((p) => p.optional !== true).length;
      // Optional parameters left out at the end are not sent: the server gives them their defaults.
      const paramsName = uniqueName('params', new Set([...calls, ...parameterList, options]));
      const trim =
        required === method.parameters.length
          ? []
          : [
              `const ${paramsName}`,
              typeOnly(': unknown[]'),
              ` = [${parameters.map((p) => p.name).join(', ')}];\n`,
              `while (${paramsName}.length > ${required} && ${paramsName}[${paramsName}.length - 1] === undefined) ${paramsName}.pop();\n`,
            ];
      const returns = method.stream
        ? callType('RpcStream', typeScriptType(method.returnType, names), method.raises, names)
        : callType('RpcPromise', resultType(method.returnType, method.returnOptional, names), method.raises, names);
      uses.push(...method.parameters.flatMap((p) => typeUses(p.type, names)), ...typeUses(method.returnType, names));
      uses.push(...method.raises.map((raised) => names.use(raised.text, true)));
      const throws = method.raises.map((raised) => {
        const error = model.errorsByName.get(raised.text);
        return `@throws {@link ${names.errorClass(raised.text)}} (code ${error?.code}) ${error?.message ?? ''}`.trimEnd();
      });
      const sent = trim.length === 0 ? `[${parameters.map((p) => p.name).join(', ')}]` : paramsName;
      // A @readonly method's parameter names: a transport with `reads: readOverGet` sends its calls as GETs.
      const read =
        !method.stream && docTags(method.comment).readonly ? `, ${JSON.stringify(method.parameters.map((p) => p.name.text))}` : '';
      const call = [
        ...trim,
        `return ${caller}(this.#transport, ${stringLiteral(wireName)}, `,
        `${sent}, ${caller === 'callMethodWithoutRaises' ? '' : `[${errors.join(', ')}], `}${options}, ${name}.contract`,
        conversion === undefined ? `${read})` : `, ${JSON.stringify(conversion)}${read})`,
        typeOnly(` as ${returns}`),
        ';',
      ];
      return {
        kind: 'method',
        doc: itemDocComment(method.comment, '  ', method.stream ? [...STREAM_DOC, ...(throws.length > 0 ? ['', ...throws] : [])] : throws),
        name: methodNames[index],
        parameters: [...parameters, { name: options, type: method.stream ? 'StreamOptions' : 'CallOptions', optional: true }],
        returnType: returns,
        body: [call],
        source: method.name.span,
      };
    });
    const summary = `Calls the \`${iface.name.text}\` interface through a transport, e.g. \`new ${name}(new HttpTransport('http://localhost:8080'))\`.`;
    return {
      kind: 'class',
      part: 'client',
      name,
      doc: withSummary(iface.comment, summary),
      exported: true,
      uses,
      source: iface.name.span,
      members: [
        {
          kind: 'static',
          doc: docComment(
            `The contract fingerprint of \`${iface.name.text}\` this client was generated from, sent with every call (header \`x-idlrpc-contract\`).`,
            '  ',
          ),
          name: 'contract',
          value: stringLiteral(fingerprints.get(iface.name.text) ?? ''),
          declaredType: 'string',
        },
        {
          kind: 'static',
          doc: docComment('The interface as the wire names it (the first part of every method name, and of TanStack query keys).', '  '),
          name: 'interfaceName',
          value: stringLiteral(iface.name.text),
          declaredType: stringLiteral(iface.name.text),
        },
        { kind: 'privateField', name: 'transport', type: 'Transport' },
        {
          kind: 'constructor',
          doc: docComment('@param transport - carries every call of this client (clients may share one)', '  '),
          parameters: [{ name: 'transport', type: 'Transport' }],
          body: [['this.#transport = transport;']],
        },
        ...methods,
      ],
    };
  });
}
