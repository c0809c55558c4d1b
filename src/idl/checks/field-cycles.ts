/**
 * `field-cycle`: a struct whose required, directly struct-typed fields lead back to itself can never
 * be built. Runs after the `extends` pass (it follows inherited fields through its forest); the
 * search itself is in ../field-cycles.ts.
 */
import { errorAt } from '../diagnostic.js';
import { requiredFieldCycles, type CycleStep } from '../field-cycles.js';
import type { CheckContext } from './context.js';
import { pathText } from './cycle-path.js';

export function checkFieldCycles({ structs, types, parentOf, report }: CheckContext): void {
  for (const cycle of requiredFieldCycles(structs, types, parentOf)) {
    const [first] = cycle;
    report(
      errorAt(
        'field-cycle',
        `struct '${first.from.name.text}' can never be built: its required fields lead back to it (${cycleText(cycle)}); mark one of them [optional]`,
        first.field.name.span,
      ),
    );
  }
}

function cycleText(cycle: CycleStep[]): string {
  return pathText(
    cycle.map((step) => `${step.from.name.text}.${step.field.name.text}`),
    cycle[0].from.name.text,
  );
}
