/**
 * `optional-stream-item`: a stream method (`stream T`) sends items, and an absent item means nothing
 * on the wire (an item event carries a value), so its return cannot be `[optional]`.
 */
import { errorAt } from '../diagnostic.js';
import type { CheckContext } from './context.js';

export function checkStreams({ interfaces, report }: CheckContext): void {
  for (const iface of interfaces) {
    for (const method of iface.methods) {
      if (!method.stream || !method.returnOptional) continue;
      const flag = method.returnAttributes?.find((attribute) => attribute.name.text === 'optional' && attribute.value === undefined);
      report(
        errorAt(
          'optional-stream-item',
          `the items of stream method '${method.name.text}' cannot be optional: a stream sends only values (remove [optional], or return a struct with an optional field)`,
          flag?.span ?? method.returnType.span,
        ),
      );
    }
  }
}
