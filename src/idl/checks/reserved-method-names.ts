/**
 * `reserved-method-name`: JSON-RPC 2.0 reserves the method names that begin with `rpc.` for the
 * protocol and its extensions (this package's `rpc.stream.item`, OpenRPC's `rpc.discover`). The
 * methods of an interface named `rpc`, or of any interface of an imported namespace `rpc`
 * (`rpc.Admin.ping`), would be named so on the wire.
 */
import { errorAt } from '../diagnostic.js';
import type { CheckContext } from './context.js';

/** The reserved word and the dot after it. */
const RESERVED_PREFIX = 'rpc.';

export function checkReservedMethodNames({ interfaces, report }: CheckContext): void {
  for (const iface of interfaces) {
    const name = iface.name.text;
    if (`${name}.`.startsWith(RESERVED_PREFIX)) {
      const rename = name === 'rpc' ? 'rename the interface' : 'rename the namespace of the imported file';
      report(
        errorAt(
          'reserved-method-name',
          `the methods of interface '${name}' would be named '${name}.<method>' on the wire, and JSON-RPC reserves the names that begin with 'rpc.' for the protocol (rpc.discover, rpc.stream.item): ${rename}`,
          iface.name.span,
          { length: name.length },
        ),
      );
    }
  }
}
