import { describe, expect, test } from 'vitest';
import { compileIdl } from '../../src/idl/index.js';
import { portabilityWarnings } from '../../src/idl/portability.js';

const SOURCE = `namespace shop

struct Card {
    number string
}

union Payment [discriminator=type] {
    card Card
}

interface Shop {
    pay(payment Payment) Card
}
`;

describe('-validate -portable: unions', () => {
  test('a located warning at each union, at its name', () => {
    const warnings = portabilityWarnings(compileIdl(SOURCE, 'shop.idl'));
    expect(warnings.map((w) => `${w.file}:${w.line}:${w.column} ${w.code} ${w.length}: ${w.message}`)).toEqual([
      "shop.idl:7:7 not-portable 7: union 'Payment' is a construct of this implementation only: the IDL family's other implementations cannot parse a union declaration",
    ]);
  });
});
