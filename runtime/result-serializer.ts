/**
 * Result serializers: functions generated from the IDL that write a method's result as JSON text,
 * its known fields only (docs/protocol.md, "Results are written field by field"). Both bindings
 * use them through `serializeResult`; a server without them (or a result that is not what the IDL
 * says) gets `JSON.stringify`.
 */

/**
 * Writes one method's result as JSON text: the IDL's fields only, in IDL order, or `undefined`
 * when the value is not what the IDL says (then the server uses `JSON.stringify`). May throw (a
 * throwing getter or `toJSON`, a cycle): the server answers -32603 then, as for `JSON.stringify`.
 */
export type ResultSerializer = (result: unknown) => string | undefined;

/** Result serializers keyed by `"<Interface>.<method>"`; generated code passes its own. */
export type SerializerTable = Readonly<Record<string, ResultSerializer>>;

/**
 * The serializer of each method of `methodNames` that has one in `table`. Throws at start-up when
 * an entry is not a function, rather than at the first call.
 */
export function resultSerializers(
  table: SerializerTable | undefined,
  methodNames: Iterable<string>,
): ReadonlyMap<string, ResultSerializer> {
  const serializers = new Map<string, ResultSerializer>();
  if (table === undefined) return serializers;
  if (typeof table !== 'object' || table === null) throw new Error('createRpcServer: serializers must be an object of functions');
  for (const name of methodNames) {
    if (!Object.hasOwn(table, name)) continue;
    const serializer = table[name];
    if (typeof serializer !== 'function') throw new Error(`createRpcServer: serializers["${name}"] must be a function`);
    serializers.set(name, serializer);
  }
  return serializers;
}

/**
 * The JSON text of a result: its serializer's, or `JSON.stringify`'s when there is none or it
 * declines the value. Throws when JSON has no text for the result (BigInt, a cycle, a throwing
 * getter, a function, a `toJSON` giving undefined): the caller answers -32603.
 */
export function serializeResult(result: unknown, serializer: ResultSerializer | undefined): string {
  const text = serializer?.(result) ?? JSON.stringify(result);
  if (text === undefined) throw new TypeError(`the result (${typeof result}) has no JSON form`);
  return text;
}
