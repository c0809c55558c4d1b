import { describe, expect, test } from 'vitest';
import {
  canonicalContractText,
  checkIdl,
  compileIdl,
  formatDiagnostic,
  parseIdl,
  printIdl,
  resolve,
  toIdlJson,
} from '../../src/idl/index.js';

const SHOP = `namespace shop

struct Card {
    number       string
}

struct Base {
    id           string
}

// A bank transfer.
struct Transfer extends Base {
    iban         string
}

// How a customer pays.
union Payment [discriminator=type] { // header comment
    // Paid by card.
    card          Card // trailing
    bank_transfer Transfer
    // end of the union
}

union Plain {
    card Card
}

interface Shop {
    pay(payment Payment) Plain
}
`;

/** The diagnostics of `source` as "line:column code: message". */
function problems(source: string): string[] {
  return checkIdl(parseIdl(source, 'shop.idl')).diagnostics.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);
}

describe('unions: syntax and formatter', () => {
  test('a union parses with its attribute list, variants and every comment, and prints back unchanged', () => {
    const file = parseIdl(SHOP, 'shop.idl');
    const union = file.declarations.find((d) => d.kind === 'union' && d.name.text === 'Payment');
    expect(union).toMatchObject({
      kind: 'union',
      comment: 'How a customer pays.',
      attributes: [{ name: { text: 'discriminator' }, value: { text: 'type' } }],
      variants: [
        { tag: { text: 'card' }, type: { text: 'Card' }, comment: 'Paid by card.' },
        { tag: { text: 'bank_transfer' }, type: { text: 'Transfer' } },
      ],
    });
    expect(printIdl(file)).toBe(SHOP);
  });

  test('the formatter aligns the variants and keeps a name written in any spacing', () => {
    const messy = SHOP.replace(
      'union Plain {\n    card Card\n}',
      'union   Plain[ discriminator = k ]{\n  card     Card\n    transfer Transfer\n}',
    );
    const printed = printIdl(parseIdl(messy, 'shop.idl'));
    expect(printed).toContain('union Plain [discriminator=k] {\n    card     Card\n    transfer Transfer\n}');
    expect(printIdl(parseIdl(printed, 'shop.idl'))).toBe(printed);
  });

  test('union stays usable as a name where no declaration starts', () => {
    expect(problems('namespace shop\n\nstruct union {\n    union  string\n}\n')).toEqual([]);
  });

  test('a variant line without a struct is a located syntax error', () => {
    expect(() => parseIdl('namespace shop\n\nunion Payment {\n    card\n}\n', 'shop.idl')).toThrow(/shop\.idl:4:9/);
  });
});

describe('unions: checker', () => {
  const base =
    'namespace shop\n\nstruct Card {\n    number  string\n    kind    string\n}\n\nstruct Base {\n    type  string\n}\n\nstruct Transfer extends Base {\n    iban  string\n}\n\nenum Color {\n    red\n}\n\n';

  test('a discriminator that is also a field of a variant, its own or inherited, is refused at the variant', () => {
    expect(problems(`${base}union A {\n    card  Card\n}\n\nunion B [discriminator=type] {\n    transfer  Transfer\n}\n`)).toEqual([
      "21:11 union-discriminator-field: the discriminator 'kind' of union 'A' is also a field of its variant 'Card': rename the field or choose another discriminator",
      "25:15 union-discriminator-field: the discriminator 'type' of union 'B' is also a field of its variant 'Transfer' (inherited from 'Base'): rename the field or choose another discriminator",
    ]);
  });

  test('a variant that is not a struct, a repeated tag, a repeated struct and an unknown attribute are refused, located', () => {
    const source = `${base}union A [discriminator=tag, version=2] {\n    color     Color\n    missing   Crad\n    transfer  Transfer\n    transfer  Card\n    again     Transfer\n}\n`;
    expect(problems(source)).toEqual([
      "20:29 union-attribute: unknown attribute 'version' on union 'A': a union takes only discriminator=<name>",
      "21:15 union-variant-not-struct: 'Color' is an enum: the variants of union 'A' must be structs",
      "22:15 union-variant-not-struct: unknown struct 'Crad' in union 'A'; did you mean 'Card'?",
      "24:5 duplicate-union-tag: tag 'transfer' is already used in union 'A' on line 23",
      "25:15 duplicate-union-variant: struct 'Transfer' is already the variant 'transfer' of union 'A': each struct may be one variant only",
    ]);
  });

  test('diagnostics carry a frame pointing at the offending text', () => {
    const source = `${base}union A {\n    card  Card\n}\n`;
    const [diagnostic] = checkIdl(parseIdl(source, 'shop.idl')).diagnostics;
    expect(formatDiagnostic(diagnostic, source)).toContain('shop.idl:21:11: error: ');
    expect(formatDiagnostic(diagnostic, source)).toContain('> 21 |     card  Card\n     |           ^^^^');
  });

  test('a union is a type wherever a struct is, and the variants refer to their structs', () => {
    const model = compileIdl(SHOP, 'shop.idl');
    expect(model.unions?.map((u) => u.name.text)).toEqual(['Payment', 'Plain']);
    const symbols = resolve(model.file);
    const variantRefs = symbols.references.filter((r) => r.from.kind === 'variant');
    expect(variantRefs.map((r) => [r.from.name, r.name, r.symbol?.kind])).toEqual([
      ['card', 'Card', 'struct'],
      ['bank_transfer', 'Transfer', 'struct'],
      ['card', 'Card', 'struct'],
    ]);
  });
});

describe('unions: JSON form and checksum', () => {
  test('the JSON form lists unions last, with the discriminator always written', () => {
    const json = toIdlJson(compileIdl(SHOP, 'shop.idl'));
    expect(Object.keys(json)).toEqual(['rootNamespace', 'checksum', 'interfaces', 'structs', 'unions']);
    expect(json.unions).toEqual([
      {
        name: 'Payment',
        namespace: 'shop',
        discriminator: 'type',
        comment: 'How a customer pays.',
        variants: [
          { tag: 'card', type: 'Card', comment: 'Paid by card.' },
          { tag: 'bank_transfer', type: 'Transfer' },
        ],
      },
      { name: 'Plain', namespace: 'shop', discriminator: 'kind', variants: [{ tag: 'card', type: 'Card' }] },
    ]);
  });

  test('the canonical text holds each union after the errors, variants sorted by tag', () => {
    const text = canonicalContractText(compileIdl(SHOP, 'shop.idl'));
    expect(text.slice(text.indexOf('union:'))).toBe(
      'union:shop.Payment\n  discriminator:type\n  variant:bank_transfer:shop.Transfer\n  variant:card:shop.Card\n' +
        'union:shop.Plain\n  discriminator:kind\n  variant:card:shop.Card\n',
    );
  });

  test('the checksum changes with a tag, a variant or the discriminator, not with comments or order', () => {
    const checksum = (source: string) => toIdlJson(compileIdl(source, 'shop.idl')).checksum;
    const original = checksum(SHOP);
    expect(checksum(SHOP.replace('card          Card', 'credit_card   Card'))).not.toBe(original);
    expect(checksum(SHOP.replace('[discriminator=type]', '[discriminator=method]'))).not.toBe(original);
    expect(checksum(SHOP.replace('    bank_transfer Transfer\n', ''))).not.toBe(original);
    expect(checksum(SHOP.replace('// Paid by card.', '// By card.'))).toBe(original);
  });
});
