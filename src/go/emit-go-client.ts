/**
 * `client.go` of a namespace's package: per interface a client type with one method per IDL
 * method (`(ctx context.Context, ...)`), its batch form (`<Method>In`), a typed stream for stream
 * methods, the contract fingerprint it sends, and the decoders of declared errors; plus the
 * package's aliases of the runtime's options, errors and batches.
 */
import type { InterfaceDecl, Method } from '../idl/ast.js';
import { goDoc, goString } from './go-source.js';
import { attributeNotes } from './emit-go-types.js';
import { type ClientNames, RUNTIME_PACKAGE } from './go-program.js';
import { goOptionalType, goType, typeDescriptor, type GoTypeContext } from './go-types.js';
import { camelCase, claim, GO_PREDECLARED } from './names.js';

/** The runtime's API under the package's own names, so callers import one package. */
export function apiAliases(): string {
  return [
    '// Option configures a client: WithHTTPClient, WithTimeout, WithHeader, WithMaxResponseBytes.',
    'type Option = idlrpc.Option',
    '',
    '// RPCError is an error answer of the server, or a -32000 transport error of the client.',
    'type RPCError = idlrpc.RPCError',
    '',
    '// Batch sends calls of any clients in one JSON-RPC batch: add them with the <Method>In methods.',
    'type Batch = idlrpc.Batch',
    '',
    '// NewBatch returns an empty batch.',
    'func NewBatch() *Batch { return idlrpc.NewBatch() }',
    '',
    '// WithHTTPClient sends the requests with client instead of http.DefaultClient.',
    'func WithHTTPClient(client *http.Client) Option { return idlrpc.WithHTTPClient(client) }',
    '',
    '// WithTimeout bounds each call (default 30 seconds; 0: only the context bounds it).',
    'func WithTimeout(timeout time.Duration) Option { return idlrpc.WithTimeout(timeout) }',
    '',
    '// WithHeader adds a header to every request.',
    'func WithHeader(name, value string) Option { return idlrpc.WithHeader(name, value) }',
    '',
    '// WithMaxResponseBytes bounds the size of an answer (default 64 MiB).',
    'func WithMaxResponseBytes(limit int64) Option { return idlrpc.WithMaxResponseBytes(limit) }',
  ].join('\n');
}

/** The clients of the package's interfaces (without package clause and imports). */
export function emitClients(context: GoTypeContext, fingerprints: ReadonlyMap<string, string>): string[] {
  const interfaces = context.model.interfaces.filter((iface) => iface.namespace === context.pkg.namespace);
  for (const path of ['net/http', 'time', `${context.module}/${RUNTIME_PACKAGE}`]) context.imports.add(path);
  if (interfaces.length > 0) context.imports.add('context');
  const internal = new Set<string>();
  for (const iface of interfaces) {
    for (const names of context.program.clients.get(iface.name.text)!.methods.values()) {
      internal.add(names.descriptor);
      if (names.decoder) internal.add(names.decoder);
    }
  }
  return [apiAliases(), ...interfaces.flatMap((iface) => clientBlocks(iface, context, fingerprints.get(iface.name.text) ?? '', internal))];
}

function clientBlocks(iface: InterfaceDecl, context: GoTypeContext, fingerprint: string, internal: Set<string>): string[] {
  const names = context.program.clients.get(iface.name.text)!;
  const blocks = [
    [
      ...goDoc(iface.comment, '', [`${names.client} calls the methods of ${iface.name.text}. It is safe for concurrent use.`]),
      `type ${names.client} struct {`,
      '\ttransport *idlrpc.Transport',
      '}',
      '',
      `// ${names.contract} is the contract fingerprint of ${iface.name.text}, sent with every call.`,
      `const ${names.contract} = ${goString(fingerprint)}`,
      '',
      `// ${names.constructor} returns a client posting to baseURL, exactly as given.`,
      `func ${names.constructor}(baseURL string, opts ...Option) *${names.client} {`,
      `\treturn &${names.client}{transport: idlrpc.NewTransport(baseURL, opts...)}`,
      '}',
      '',
      `// ${names.withTransport} returns a client sharing transport with other clients.`,
      `func ${names.withTransport}(transport *idlrpc.Transport) *${names.client} {`,
      `\treturn &${names.client}{transport: transport}`,
      '}',
    ].join('\n'),
  ];
  for (const method of iface.methods) blocks.push(...methodBlocks(iface, method, names, context, internal));
  return blocks;
}

function methodBlocks(iface: InterfaceDecl, method: Method, names: ClientNames, context: GoTypeContext, internal: Set<string>): string[] {
  const own = names.methods.get(method.name.text)!;
  const wireName = `${iface.name.text}.${method.name.text}`;
  // Parameters must not hide the receiver, the locals, the packages or the package's internal names.
  const taken = new Set([
    'c',
    'ctx',
    'result',
    'err',
    'b',
    'into',
    'stream',
    'ok',
    ...GO_PREDECLARED,
    ...internal,
    ...importNames(context),
  ]);
  const parameters = method.parameters.map((parameter) => ({
    name: claim(camelCase(parameter.name.text), taken),
    type: parameter.optional ? goOptionalType(parameter.type, context) : goType(parameter.type, context),
    notes: attributeNotes(parameter),
    optional: parameter.optional === true,
  }));
  const signature = parameters.map((p) => `, ${p.name} ${p.type}`).join('');
  const required = parameters.filter((p) => !p.optional).length;
  const values = parameters.map((p) => p.name).join(', ');
  const params =
    required === parameters.length
      ? `[]any{${values}}`
      : `idlrpc.Params(${[String(required), ...parameters.map((p) => p.name)].join(', ')})`;
  const optionalNotes = parameters.filter((p) => p.optional).map((p) => `${p.name} may be nil: it is then left out.`);
  const notes = [...parameters.flatMap((p) => p.notes.map((note) => `${p.name}: ${note}`)), ...optionalNotes];
  // Go's convention: a doc comment starts with the name it documents.
  const doc = [
    `// ${own.method} calls ${wireName}.`,
    ...goDoc(method.comment),
    ...goDoc(undefined, '', [...notes, ...raisesNote(method, context)]),
  ];
  const resultType = method.returnOptional ? goOptionalType(method.returnType, context) : goType(method.returnType, context);
  const blocks = [descriptorBlock(method, own, wireName, names, context)];
  if (method.stream) {
    blocks.push(streamBlocks(method, own.stream!, own.method, doc, signature, params, names, goType(method.returnType, context)));
    return blocks;
  }
  blocks.push(
    [
      ...doc,
      `func (c *${names.client}) ${own.method}(ctx context.Context${signature}) (${resultType}, error) {`,
      `\tvar result ${resultType}`,
      `\terr := c.transport.Call(ctx, ${own.descriptor}, ${params}, &result)`,
      '\treturn result, err',
      '}',
      '',
      `// ${own.batch} adds a call of ${wireName} to b; its result is decoded into into when b is sent.`,
      `func (c *${names.client}) ${own.batch}(b *idlrpc.Batch, into *${resultType}${signature}) *idlrpc.BatchCall {`,
      `\treturn b.Add(c.transport, ${own.descriptor}, ${params}, into)`,
      '}',
    ].join('\n'),
  );
  return blocks;
}

function raisesNote(method: Method, context: GoTypeContext): string[] {
  if (method.raises.length === 0) return [];
  const types = method.raises.map((raised) => qualifiedError(raised.text, context).type);
  return [`Declared errors (use errors.As): ${types.map((type) => `*${type}`).join(', ')}.`];
}

function qualifiedError(idlName: string, context: GoTypeContext): { type: string } {
  const names = context.program.errorNames.get(idlName)!;
  const owner = context.program.packageOf(context.model.errorsByName.get(idlName)?.namespace);
  if (owner === context.pkg) return { type: names.type };
  context.imports.add(`${context.module}/${owner.name}`);
  return { type: `${owner.name}.${names.type}` };
}

function descriptorBlock(
  method: Method,
  own: { descriptor: string; decoder?: string },
  wireName: string,
  names: ClientNames,
  context: GoTypeContext,
): string {
  const result = typeDescriptor(method.returnType, method.returnOptional && !method.stream);
  const fields = [`Name: ${goString(wireName)}`, `Contract: ${names.contract}`, `Result: ${goString(result)}`];
  if (own.decoder) fields.push(`Errors: ${own.decoder}`);
  const lines = [`var ${own.descriptor} = idlrpc.Method{${fields.join(', ')}}`];
  if (own.decoder) {
    lines.push(
      '',
      `func ${own.decoder}(e *idlrpc.RPCError) error {`,
      '\tswitch e.Code {',
      ...method.raises.flatMap((raised) => {
        const error = context.model.errorsByName.get(raised.text)!;
        return [`\tcase ${error.code}:`, `\t\treturn &${qualifiedError(raised.text, context).type}{RPCError: *e}`];
      }),
      '\t}',
      '\treturn e',
      '}',
    );
  }
  return lines.join('\n');
}

function streamBlocks(
  method: Method,
  streamType: string,
  methodName: string,
  doc: string[],
  signature: string,
  params: string,
  names: ClientNames,
  itemType: string,
): string {
  const descriptor = names.methods.get(method.name.text)!.descriptor;
  return [
    `// ${streamType} is the stream of ${itemType} items of ${methodName}: call Next until it returns`,
    '// false, then Err; Close stops it early.',
    `type ${streamType} struct {`,
    '\tstream *idlrpc.Stream',
    `\titem   ${itemType}`,
    '}',
    '',
    '// Next waits for the next item; false when the stream ended or failed (see Err).',
    `func (s *${streamType}) Next() bool {`,
    // A fresh item each time, so fields of an earlier item do not leak into the next.
    `\tvar item ${itemType}`,
    '\tok := s.stream.Next(&item)',
    '\ts.item = item',
    '\treturn ok',
    '}',
    '',
    '// Item is the item Next read.',
    `func (s *${streamType}) Item() ${itemType} { return s.item }`,
    '',
    '// Err is the error that ended the stream (a declared error, an RPCError), nil when it ended normally.',
    `func (s *${streamType}) Err() error { return s.stream.Err() }`,
    '',
    '// LastEventID is the event id of the last item, which a reconnection resumes from.',
    `func (s *${streamType}) LastEventID() string { return s.stream.LastEventID() }`,
    '',
    '// Close stops the stream.',
    `func (s *${streamType}) Close() error { return s.stream.Close() }`,
    '',
    ...doc,
    `func (c *${names.client}) ${methodName}(ctx context.Context${signature}) (*${streamType}, error) {`,
    `\tstream, err := c.transport.OpenStream(ctx, ${descriptor}, ${params})`,
    '\tif err != nil {',
    '\t\treturn nil, err',
    '\t}',
    `\treturn &${streamType}{stream: stream}, nil`,
    '}',
  ].join('\n');
}

/** The names the file's imports bind. */
function importNames(context: GoTypeContext): string[] {
  return ['context', 'http', 'time', 'json', RUNTIME_PACKAGE, ...context.program.packages.map((pkg) => pkg.name)];
}
