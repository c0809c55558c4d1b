import { describe, expect, it } from 'vitest';
import { compileIdl } from '../idl/index.js';
import { clearCompiledCheckCache, compiledCheckCacheSize } from './compiled-check-cache.js';
import { generateModule } from './module.js';

const options = { runtimeImport: 'rt', runtimeClientImport: 'rt', sourceFile: 'shop.idl' };
const generate = (idl: string) => generateModule(compileIdl(idl, 'shop.idl'), options).js;

/** Two structs of one shape (each referring to an enum of one shape), and an interface using both. */
const SHOP = `namespace shop
enum ColorA {
    red
    blue
}
enum ColorB {
    red
    blue
}
struct A {
    id     string
    color  ColorA
}
struct B {
    id     string
    color  ColorB
}
interface Shop {
    a(x A) bool
    b(x B) bool
}
`;

describe('compiled checks are cached by the canonical text of their schema', () => {
  it('compiles types of one shape once, and nothing again when the IDL is generated again', () => {
    clearCompiledCheckCache();
    const first = generate(SHOP);
    const compiled = compiledCheckCacheSize();
    // A, B: one shape (their own names and the enums they name are aliased); ColorA, ColorB: one.
    // Renamed types of the same shapes: new names, no new compilation.
    expect(generate(SHOP.replaceAll('A', 'C').replaceAll('B', 'D'))).toContain('function check_D(value)');
    expect(compiledCheckCacheSize()).toBe(compiled);
    expect(generate(SHOP)).toBe(first);
    expect(compiledCheckCacheSize()).toBe(compiled);
  });

  it('gives the same code with a cold cache and a warm one, each check named after its own type', () => {
    clearCompiledCheckCache();
    const cold = generate(SHOP);
    expect(generate(SHOP)).toBe(cold);
    expect(cold).toContain('function check_A(value)');
    expect(cold).toContain('function check_B(value)');
    expect(cold).toMatch(/function check_B\(value\) \{[^}]*check_ColorB\(value\['color'\]\)/);
  });

  it('tells apart schemas that differ only in a field name or in whether a field is optional', () => {
    clearCompiledCheckCache();
    generate(SHOP);
    const before = compiledCheckCacheSize();
    generate(SHOP.replace('    color  ColorB', '    colour ColorB'));
    expect(compiledCheckCacheSize()).toBeGreaterThan(before);
    const checkOf = (js: string, type: string) => js.slice(js.indexOf(`function check_${type}(value)`)).split('\n}\n')[0];
    const same = generate(SHOP);
    expect(checkOf(same, 'B').replaceAll('B', 'A')).toBe(checkOf(same, 'A'));
    const optional = generate(SHOP.replace('    color  ColorB', '    color  ColorB [optional]'));
    expect(checkOf(optional, 'B').replaceAll('B', 'A')).not.toBe(checkOf(optional, 'A'));
  });
});
