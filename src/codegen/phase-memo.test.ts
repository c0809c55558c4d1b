import { beforeEach, describe, expect, test } from 'vitest';
import { compileIdl } from '../idl/index.js';
import { generateDeclarations } from './generate.js';
import { generateModule } from './module.js';
import { clearPhaseMemos, phaseMemoStats } from './phase-memo.js';
import { walkerMemoStats } from './emit-problem-walkers.js';
import { checkMemoStats } from './emit-validators.js';
import { writerMemoStats } from './emit-serializers.js';
import { internedSchemas } from './interned-schemas.js';
import { internedIdlJson } from './interned-idl-json.js';
import { toIdlJson } from '../idl/json.js';
import { idlSchemas } from '../../runtime/schema.js';

const BASE = `namespace shop

enum Category {
    tea
    coffee
}

struct Money {
    amount float [min=0]
    currency string [pattern="^[A-Z]{3}$"]
}

struct Product {
    productId string [minLength=1]
    price Money
    category Category
    tags []string [optional, maxItems=5]
}

struct Bundle extends Product {
    items map[string]Product
}

union Listing [discriminator=kind] {
    single Product
    bundle Bundle
}

// Nothing any method uses.
struct Unused {
    note string
}

errors {
    1 NotFound "no such product"
}

interface Catalog {
    getProduct(productId string [minLength=1]) Product raises(NotFound)
    // Every listing, newest first.
    listings(limit int [optional, min=1]) []Listing
    price(productId string) Money [optional]
}
`;

/**
 * An edit of the IDL text, and how many of the four reusable phases (validators, serializers, client
 * classes, handler interfaces) it leaves reusable.
 */
interface Edit {
  name: string;
  apply(text: string): string;
  reused: number;
}

const append = (text: string) => (idl: string) => `${idl}\n${text}\n`;

const EDITS: Edit[] = [
  { name: 'a struct no method uses is added', apply: append('struct Added {\n    value int\n}'), reused: 4 },
  { name: 'a struct no method uses is changed', apply: (idl) => idl.replace('note string', 'note int'), reused: 4 },
  {
    name: 'a comment of a struct no method uses',
    apply: (idl) => idl.replace('// Nothing any method uses.', '// Still unused.'),
    reused: 4,
  },
  {
    name: 'a field of a struct the methods reach',
    apply: (idl) => idl.replace('currency string', 'cents int\n    currency string'),
    reused: 0,
  },
  { name: 'a struct takes the name of a generated check', apply: append('struct check_Money {\n    value int\n}'), reused: 3 },
  { name: 'a struct takes the name of a generated serializer', apply: append('struct json_Money {\n    value int\n}'), reused: 3 },
  {
    name: 'a struct no method uses extends one they reach',
    apply: append('struct Special extends Money {\n    reason string\n}'),
    reused: 3,
  },
  { name: 'a struct takes the name of a generated walker', apply: append('struct problems_Money {\n    value int\n}'), reused: 3 },
  {
    name: 'a constrained field is added before others (the constraint walkers after it are numbered anew)',
    apply: (idl) =>
      idl.replace('    productId string [minLength=1]\n', '    code string [maxLength=9]\n    productId string [minLength=1]\n'),
    reused: 0,
  },
  {
    name: 'an enum the walkers name in their messages gains a value',
    apply: (idl) => idl.replace('    coffee\n', '    coffee\n    cocoa\n'),
    reused: 0,
  },
  {
    name: 'a field of a struct another extends',
    apply: (idl) => idl.replace('    category Category\n', '    category Category\n    stock int\n'),
    reused: 0,
  },
  { name: 'the doc comment of a method', apply: (idl) => idl.replace('newest first', 'oldest first'), reused: 2 },
  { name: 'a method is added', apply: (idl) => idl.replace('    price(productId', '    count() int\n    price(productId'), reused: 0 },
  { name: 'the type a method returns is renamed', apply: (idl) => idl.replaceAll('Money', 'Amount'), reused: 0 },
];

const generate = (text: string, reuse = true) =>
  generateModule(compileIdl(text, 'shop.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'shop.idl',
    reuse,
  });

describe('a generation after an edit, reusing phases of the one before', () => {
  beforeEach(() => clearPhaseMemos());

  test.each(EDITS)('is the generation from scratch when $name', (edit) => {
    const edited = edit.apply(BASE);
    expect(edited).not.toBe(BASE);
    const fresh = generate(edited);
    clearPhaseMemos();
    generate(BASE);
    const before = { ...phaseMemoStats };
    const reusing = generate(edited);
    expect(phaseMemoStats.reused - before.reused).toBe(edit.reused);
    expect(reusing.js).toBe(fresh.js);
    expect(reusing.dts).toBe(fresh.dts);
    expect(reusing.mappings).toEqual(fresh.mappings);
  });

  test('an edit undone reuses the phases of the text as it was', () => {
    const first = generate(BASE);
    generate(EDITS[3].apply(BASE));
    const before = { ...phaseMemoStats };
    const again = generate(BASE);
    expect(phaseMemoStats.reused - before.reused).toBe(4);
    expect(again.js).toBe(first.js);
  });

  test('phases reused again and again print what a generation from scratch prints (their text is kept)', () => {
    const texts = [BASE, append('struct A {\n    value int\n}')(BASE), append('struct B {\n    value int\n}')(BASE), BASE];
    const fresh = texts.map((text) => {
      clearPhaseMemos();
      return generate(text);
    });
    clearPhaseMemos();
    texts.forEach((text, i) => {
      const reusing = generate(text);
      expect([reusing.js, reusing.dts]).toEqual([fresh[i].js, fresh[i].dts]);
      expect(reusing.mappings).toEqual(fresh[i].mappings);
    });
    expect(phaseMemoStats.reused).toBe(12);
  });

  test('a generation without a slot (the output directory of `idlrpc`) neither reuses nor records', () => {
    const model = compileIdl(BASE, 'shop.idl');
    generateDeclarations(model);
    const before = { ...phaseMemoStats };
    generateDeclarations(model);
    expect(phaseMemoStats).toEqual(before);
    generateDeclarations(model, undefined, 'shop.idl');
    generateDeclarations(model, undefined, 'shop.idl');
    expect(phaseMemoStats.reused - before.reused).toBe(4);
  });

  test('a module generated without `reuse` (a build) neither reuses nor records', () => {
    generate(BASE, false);
    generate(BASE, false);
    expect(phaseMemoStats).toEqual({ reused: 0, run: 0 });
    generate(BASE);
    expect(phaseMemoStats).toEqual({ reused: 0, run: 4 });
  });

  test('reusing a phase takes its names again: what the next phase makes up avoids them', () => {
    // `json_Money` was taken by the serializers in the reused run; a struct of that name added later
    // must not get it twice (the module would not load).
    generate(BASE);
    const edited = append('struct Extra {\n    value int\n}')(BASE);
    const reusing = generate(edited);
    clearPhaseMemos();
    expect(reusing.js).toBe(generate(edited).js);
  });
});

/** What is kept per type across generations, with its counters and a struct name taking one of its names. */
const PER_TYPE = [
  { what: 'named checks', stats: checkMemoStats, clash: 'check_Money' },
  { what: 'named problem walkers', stats: walkerMemoStats, clash: 'problems_Money' },
  { what: 'struct writers', stats: writerMemoStats, clash: 'json_Money' },
];

describe.each(PER_TYPE)('the $what of a generation after an edit', ({ stats, clash }) => {
  beforeEach(() => clearPhaseMemos());

  test('are those of the generation before, but for the edited type', () => {
    const before = { ...stats };
    generate(BASE);
    const made = stats.remembered - before.remembered;
    expect(made).toBeGreaterThanOrEqual(3);
    const afterFirst = { ...stats };
    const edited = EDITS[3].apply(BASE); // a field of Money, which Product's check, walker and writer call
    const reusing = generate(edited);
    expect(stats.remembered - afterFirst.remembered).toBe(1);
    expect(stats.reused - afterFirst.reused).toBe(made - 1);
    clearPhaseMemos();
    const fresh = generate(edited);
    expect([reusing.js, reusing.dts]).toEqual([fresh.js, fresh.dts]);
  });

  test(`are made anew where one they call is named otherwise now (a struct named ${clash})`, () => {
    generate(BASE);
    const before = { ...stats };
    const edited = append(`struct ${clash} {\n    value int\n}`)(BASE);
    const reusing = generate(edited);
    // Money's takes the name with a 2 now: it and every one that calls it are made again.
    expect(stats.remembered - before.remembered).toBeGreaterThan(1);
    clearPhaseMemos();
    expect(reusing.js).toBe(generate(edited).js);
  });
});

describe('the IDL JSON and schemas of a file generated again', () => {
  beforeEach(() => clearPhaseMemos());
  // `null`: no slot (a default parameter would take `undefined` for the default).
  const idlOf = (text: string, slot: string | null = 'shop.idl') =>
    internedIdlJson(toIdlJson(compileIdl(text, 'shop.idl')), slot ?? undefined);
  const byId = (schemas: ReturnType<typeof internedSchemas>) => new Map(schemas.references.map((schema) => [schema.$id, schema]));

  test('keep the object of each declaration that is as it was, per slot, and the schema made from it', () => {
    const firstJson = idlOf(BASE);
    const editedJson = idlOf(EDITS[3].apply(BASE));
    const struct = (json: typeof firstJson, name: string) => json.structs?.find((s) => s.name === name);
    expect(struct(editedJson, 'Product')).toBe(struct(firstJson, 'Product'));
    expect(struct(editedJson, 'Money')).not.toBe(struct(firstJson, 'Money'));
    expect(JSON.stringify(editedJson)).toBe(JSON.stringify(toIdlJson(compileIdl(EDITS[3].apply(BASE), 'shop.idl'))));
    expect(struct(idlOf(BASE, 'other.idl'), 'Product')).not.toBe(struct(firstJson, 'Product'));
    expect(struct(idlOf(BASE, null), 'Product')).not.toBe(struct(editedJson, 'Product'));

    const [first, again] = [internedSchemas(firstJson, true), internedSchemas(editedJson, true)];
    expect(again.methods['Catalog.getProduct']).toBe(first.methods['Catalog.getProduct']);
    const [a, b] = [byId(first), byId(again)];
    expect(b.get('Product')).toBe(a.get('Product'));
    expect(b.get('Category')).toBe(a.get('Category'));
    expect(b.get('Money')).not.toBe(a.get('Money'));
    expect(b.get('Money')).toEqual(byId(idlSchemas(editedJson)).get('Money'));
    expect(byId(internedSchemas(editedJson, false)).get('Product')).not.toBe(b.get('Product'));
  });

  test("build a struct's schema anew when the struct it extends comes or goes", () => {
    const parent = { name: 'Base', fields: [{ name: 'id', type: { builtIn: 'string' } }] };
    const child = { name: 'Child', extends: 'Base', fields: [{ name: 'note', type: { builtIn: 'string' } }] };
    const idl = (structs: object[]) => ({ rootNamespace: 'x', checksum: 'x', structs, enums: [], interfaces: [] }) as never;
    const withParent = byId(internedSchemas(idl([parent, child]), true)).get('Child');
    const alone = byId(internedSchemas(idl([child]), true)).get('Child');
    expect(alone).not.toBe(withParent);
    expect(alone).toEqual(byId(idlSchemas(idl([child]))).get('Child'));
  });
});
