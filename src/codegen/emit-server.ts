/**
 * The declarations of `server.ts`: a handler interface per IDL interface, the IDL JSON served by
 * `rpc-idl`, and `create<Namespace>Server`, which builds the runtime's server from handler objects.
 */
import { defaultOf } from '../idl/attributes.js';
import type { IdlModel } from '../idl/model.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import type { Declaration, Use } from './declarations.js';
import type { SerializerDeclarations } from './emit-serializers.js';
import { typeUses } from './emit-client.js';
import { parameterNames, typeScriptNames, uniqueName, VALIDATORS, type ServerNames, type TypeScriptNames } from './names.js';
import { anchored } from './source-anchor.js';
import { docComment, itemDocComment, jsonParseExpression, type KeptJsonTexts, propertyKey, withSummary } from './source-text.js';
import { resultType, typeScriptType } from './type-mapping.js';

/** The TSDoc lines a stream method's handler gets after its own doc comment. */
const STREAM_HANDLER_DOC = [
  'A stream: an async generator (or a promise of an `AsyncIterable`) yielding each item, or',
  '`streamEvent(item, id)` to set its event id. `ctx.lastEventId` is the id a resuming client last',
  'received; `ctx.signal` aborts when the client goes away (the generator `finally` runs).',
];

/** The names of the server-side declarations (`create<Ns>Server`, ...), as the generated module exports them. */
export function serverNames(model: IdlModel): ServerNames {
  return typeScriptNames(model).server;
}

/**
 * The handler interface of each of `model`'s interfaces. What it reads of the interfaces is what
 * `interfacesKey` (phase-keys.ts) writes down: a new read belongs there too.
 */
export function handlerInterfaceDeclarations(model: IdlModel, typeScript: TypeScriptNames): Declaration[] {
  const names = typeScript.server;
  return model.interfaces.map((iface): Declaration => {
    const uses: Use[] = [{ from: 'runtime', name: 'RpcContext', typeOnly: true }];
    const methods = iface.methods.map((method) => {
      const parameterList = parameterNames(method.parameters, []);
      // A left-out optional parameter arrives as its default, or `undefined` where it has none.
      const parameters = method.parameters.map((p, i) => {
        const type = typeScriptType(p.type, typeScript);
        const leftOut = p.optional === true && defaultOf(p.attributes) === undefined;
        return `${parameterList[i]}: ${leftOut ? `${type} | undefined` : type}`;
      });
      const ctx = uniqueName('ctx', new Set(parameterList));
      if (method.stream) uses.push({ from: 'runtime', name: 'StreamHandlerResult', typeOnly: true });
      uses.push(...method.parameters.flatMap((p) => typeUses(p.type, typeScript)), ...typeUses(method.returnType, typeScript));
      const throws = method.raises.map((raised) => {
        const code = model.errorsByName.get(raised.text)?.code;
        return `@throws \`${typeScript.errorClass(raised.text)}\` (code ${code}) to answer with that declared error`;
      });
      const key = anchored(propertyKey(method.name.text), method.name.span);
      if (method.stream) {
        // A stream's handler needs its context (ctx.signal, ctx.lastEventId): the runtime always passes it.
        const item = typeScriptType(method.returnType, typeScript);
        const doc = itemDocComment(method.comment, '  ', [...STREAM_HANDLER_DOC, ...(throws.length > 0 ? ['', ...throws] : [])]);
        return `${doc}  ${key}(${[...parameters, `${ctx}: RpcContext`].join(', ')}): StreamHandlerResult<${item}>;\n`;
      }
      const returns = resultType(method.returnType, method.returnOptional, typeScript);
      const doc = itemDocComment(method.comment, '  ', throws);
      return `${doc}  ${key}(${[...parameters, `${ctx}?: RpcContext`].join(', ')}): ${returns} | Promise<${returns}>;\n`;
    });
    const summary = `The handler of the \`${iface.name.text}\` interface: pass it to {@link ${names.create}}. Each method also receives the call's context (headers, remote address, JSON-RPC id, abort signal).`;
    const name = typeScript.declared(iface.name.text);
    return {
      kind: 'type',
      part: 'server',
      name,
      doc: withSummary(iface.comment, summary),
      exported: true,
      uses,
      text: `interface ${anchored(name, iface.name.span)} ${methods.length === 0 ? '{}' : `{\n${methods.join('')}}`}`,
    };
  });
}

/**
 * The root module's server (given `root`: every interface of the program, those of imported
 * namespaces under their qualified names, and the result serializers): the handlers' type, the IDL
 * JSON served by `rpc-idl`, the options and `create<Namespace>Server`.
 */
export function serverDeclarations(
  model: IdlModel,
  idl: IdlJson,
  typeScript: TypeScriptNames,
  root: { interfaces: IdlModel['interfaces']; serializers: SerializerDeclarations; keptJson?: KeptJsonTexts },
): Declaration[] {
  const names = typeScript.server;
  const served = root.interfaces;
  const { declarations: serializers, table: serializerTable } = root.serializers;
  const handlerFields = served
    .map((iface) => `  ${anchored(propertyKey(iface.name.text), iface.name.span)}: ${typeScript.declared(iface.name.text)};\n`)
    .join('');
  // The server's own declarations stand for the IDL as a whole: they point at its namespace.
  const namespace = model.file.namespace?.name.span;
  const namespaced = (name: string) => (namespace ? anchored(name, namespace) : name);
  const handlerUses = served.filter((iface) => iface.namespace !== undefined).map((iface) => typeScript.use(iface.name.text, false));
  return [
    {
      kind: 'type',
      part: 'server',
      name: names.handlers,
      doc: docComment(`One handler object per interface of the \`${model.namespace}\` IDL, under the interface name.`),
      exported: true,
      uses: handlerUses,
      text: `type ${namespaced(names.handlers)} = {\n${handlerFields}};\n`,
    },
    {
      kind: 'const',
      part: 'server',
      name: names.idl,
      doc: docComment('The IDL as JSON, as the built-in `rpc-idl` method serves it.'),
      exported: true,
      uses: [{ from: 'runtime', name: 'IdlJson', typeOnly: true }],
      source: namespace,
      annotation: 'IdlJson',
      declaredType: 'IdlJson',
      // Parsed from its text, not written as an object literal: see jsonParseExpression (TS2590 for large IDLs).
      value: [`/*#__PURE__*/ ${jsonParseExpression(idl, root.keptJson)}`],
    },
    {
      kind: 'type',
      part: 'server',
      name: names.options,
      doc: docComment(`Options of {@link ${names.create}}: the runtime server's options except those the generated code supplies.`),
      exported: true,
      uses: [{ from: 'runtime', name: 'RpcServerOptions', typeOnly: true }],
      text: `type ${namespaced(names.options)} = Omit<RpcServerOptions, 'idl' | 'handlers' | 'validators' | 'serializers'>;\n`,
    },
    ...serializers,
    {
      kind: 'function',
      part: 'server',
      name: names.create,
      doc: docComment(
        [
          `Builds the JSON-RPC server of the \`${model.namespace}\` IDL from one handler object per interface, validating`,
          'calls and results with the validators compiled ahead of time and writing results with the serializers',
          'generated from it, known fields only (no `eval` at run time).',
          'Serve it with the runtime: `listen(server)` (port `SERVER_PORT`, default 8080), `createNodeListener`,',
          '`createMiddleware` or `createFetchHandler`.',
        ].join('\n'),
      ),
      exported: true,
      uses: [
        { from: 'runtime', name: 'createRpcServer', typeOnly: false },
        { from: 'runtime', name: 'RpcServer', typeOnly: true },
        { from: 'types', name: VALIDATORS, typeOnly: false },
      ],
      parameters: [
        { name: 'handlers', type: names.handlers },
        { name: 'options', type: names.options, optional: true },
      ],
      returnType: 'RpcServer',
      source: namespace,
      body: [
        [
          `return createRpcServer({ ...options, idl: ${names.idl}, handlers, ${VALIDATORS === 'validators' ? VALIDATORS : `validators: ${VALIDATORS}`}, ${serializerTable === 'serializers' ? serializerTable : `serializers: ${serializerTable}`} });`,
        ],
      ],
    },
  ];
}
