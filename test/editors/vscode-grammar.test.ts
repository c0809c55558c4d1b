/**
 * The TextMate grammar of the VS Code extension (editors/vscode/syntaxes), tokenized with
 * vscode-textmate and the Oniguruma engine VS Code uses: the scope of every construct.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createOnigScanner, createOnigString, loadWASM } from 'vscode-oniguruma';
import { INITIAL, type IGrammar, parseRawGrammar, Registry } from 'vscode-textmate';
import { REPO_ROOT } from '../cli/run-cli.js';

const GRAMMAR_PATH = join(REPO_ROOT, 'editors/vscode/syntaxes/idl.tmLanguage.json');
let grammar: IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(join(createRequire(import.meta.url).resolve('vscode-oniguruma'), '../onig.wasm'));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner, createOnigString }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.idl-rpc' ? parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null,
  });
  grammar = (await registry.loadGrammar('source.idl-rpc'))!;
});

/** Every token of `text` (trimmed) with its innermost scope (the one a theme colours by), without the `.idl-rpc` suffix. */
function tokens(text: string): [string, string][] {
  const out: [string, string][] = [];
  let state = INITIAL;
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const value = line.slice(token.startIndex, token.endIndex);
      if (value.trim() === '') continue;
      out.push([value.trim(), token.scopes.at(-1)!.replace(/\.idl-rpc$/, '')]);
    }
    state = result.ruleStack;
  }
  return out;
}

describe('scopes', () => {
  test('comments, namespace, import', () => {
    expect(tokens('// The shop.\nnamespace shop\nimport "common.idl"')).toEqual([
      ['//', 'punctuation.definition.comment'],
      ['The shop.', 'comment.line.double-slash'],
      ['namespace', 'keyword.other.namespace'],
      ['shop', 'entity.name.namespace'],
      ['import', 'keyword.control.import'],
      ['"common.idl"', 'string.quoted.double.import'],
    ]);
  });

  test('enum with values', () => {
    expect(tokens('enum Size {\n    small // the least\n    large\n}')).toEqual([
      ['enum', 'storage.type.enum'],
      ['Size', 'entity.name.type.enum'],
      ['{', 'punctuation.definition.block.begin'],
      ['small', 'variable.other.enummember'],
      ['//', 'punctuation.definition.comment'],
      ['the least', 'comment.line.double-slash'],
      ['large', 'variable.other.enummember'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });

  test('struct with extends, built-in, array, map, named, qualified types and [optional]', () => {
    expect(
      tokens(
        'struct Item extends common.Base {\n    count int\n    tags []string [optional]\n    prices map[string]common.Money\n    size Size\n}',
      ),
    ).toEqual([
      ['struct', 'storage.type.struct'],
      ['Item', 'entity.name.type.struct'],
      ['extends', 'storage.modifier.extends'],
      ['common', 'entity.name.namespace'],
      ['.', 'punctuation.accessor'],
      ['Base', 'entity.other.inherited-class'],
      ['{', 'punctuation.definition.block.begin'],
      ['count', 'variable.other.property'],
      ['int', 'support.type.primitive'],
      ['tags', 'variable.other.property'],
      ['[]', 'storage.modifier.array'],
      ['string', 'support.type.primitive'],
      ['[optional]', 'storage.modifier.optional'],
      ['prices', 'variable.other.property'],
      ['map', 'support.type.map'],
      ['[', 'punctuation.definition.map'],
      ['string', 'support.type.primitive'],
      [']', 'punctuation.definition.map'],
      ['common', 'entity.name.namespace'],
      ['.', 'punctuation.accessor'],
      ['Money', 'entity.name.type'],
      ['size', 'variable.other.property'],
      ['Size', 'entity.name.type'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });

  test('errors with codes, names and messages with escapes', () => {
    expect(tokens('errors {\n    1001 Gone "it is \\"gone\\""\n}')).toEqual([
      ['errors', 'storage.type.errors'],
      ['{', 'punctuation.definition.block.begin'],
      ['1001', 'constant.numeric.integer'],
      ['Gone', 'entity.name.type.error'],
      ['"', 'string.quoted.double'],
      ['it is', 'string.quoted.double'],
      ['\\"', 'constant.character.escape'],
      ['gone', 'string.quoted.double'],
      ['\\"', 'constant.character.escape'],
      ['"', 'string.quoted.double'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });

  test('interface with methods, parameters, return types, [optional] and raises', () => {
    expect(tokens('interface Shop {\n    buy(item Item, n int) []Item [optional] raises(Gone, common.Broke)\n}')).toEqual([
      ['interface', 'storage.type.interface'],
      ['Shop', 'entity.name.type.interface'],
      ['{', 'punctuation.definition.block.begin'],
      ['buy', 'entity.name.function'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['item', 'variable.parameter'],
      ['Item', 'entity.name.type'],
      [',', 'source'],
      ['n', 'variable.parameter'],
      ['int', 'support.type.primitive'],
      [')', 'punctuation.definition.parameters.end'],
      ['[]', 'storage.modifier.array'],
      ['Item', 'entity.name.type'],
      ['[optional]', 'storage.modifier.optional'],
      ['raises', 'storage.modifier.raises'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['Gone', 'entity.name.type.error'],
      [',', 'source'],
      ['common', 'entity.name.namespace'],
      ['.', 'punctuation.accessor'],
      ['Broke', 'entity.name.type.error'],
      [')', 'punctuation.definition.parameters.end'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });

  test('attribute lists: names, numbers, texts with escapes, JSON defaults, on fields, parameters and returns', () => {
    expect(
      tokens(
        'struct Item {\n    qty int [min=1, max=-2.5e3]\n    code string [optional, pattern="^\\\\d+$", default={"a": [1, null]}]\n}\n' +
          'interface Shop {\n    list(q string [optional], n int [optional, default=30]) []Item [maxItems=100] raises(Gone)\n}',
      ),
    ).toEqual([
      ['struct', 'storage.type.struct'],
      ['Item', 'entity.name.type.struct'],
      ['{', 'punctuation.definition.block.begin'],
      ['qty', 'variable.other.property'],
      ['int', 'support.type.primitive'],
      ['[', 'punctuation.definition.attributes.begin'],
      ['min', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['1', 'constant.numeric'],
      [',', 'meta.attributes'],
      ['max', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['-2.5e3', 'constant.numeric'],
      [']', 'punctuation.definition.attributes.end'],
      ['code', 'variable.other.property'],
      ['string', 'support.type.primitive'],
      ['[', 'punctuation.definition.attributes.begin'],
      ['optional', 'storage.modifier.optional'],
      [',', 'meta.attributes'],
      ['pattern', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['"', 'string.quoted.double'],
      ['^', 'string.quoted.double'],
      ['\\\\', 'constant.character.escape'],
      ['d+$', 'string.quoted.double'],
      ['"', 'string.quoted.double'],
      [',', 'meta.attributes'],
      ['default', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['{', 'punctuation.definition.json.begin'],
      ['"', 'string.quoted.double'],
      ['a', 'string.quoted.double'],
      ['"', 'string.quoted.double'],
      [':', 'meta.attributes'],
      ['[', 'punctuation.definition.json.begin'],
      ['1', 'constant.numeric'],
      [',', 'meta.attributes'],
      ['null', 'constant.language'],
      [']', 'punctuation.definition.json.end'],
      ['}', 'punctuation.definition.json.end'],
      [']', 'punctuation.definition.attributes.end'],
      ['}', 'punctuation.definition.block.end'],
      ['interface', 'storage.type.interface'],
      ['Shop', 'entity.name.type.interface'],
      ['{', 'punctuation.definition.block.begin'],
      ['list', 'entity.name.function'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['q', 'variable.parameter'],
      ['string', 'support.type.primitive'],
      ['[optional]', 'storage.modifier.optional'],
      [',', 'source'],
      ['n', 'variable.parameter'],
      ['int', 'support.type.primitive'],
      ['[', 'punctuation.definition.attributes.begin'],
      ['optional', 'storage.modifier.optional'],
      [',', 'meta.attributes'],
      ['default', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['30', 'constant.numeric'],
      [']', 'punctuation.definition.attributes.end'],
      [')', 'punctuation.definition.parameters.end'],
      ['[]', 'storage.modifier.array'],
      ['Item', 'entity.name.type'],
      ['[', 'punctuation.definition.attributes.begin'],
      ['maxItems', 'entity.other.attribute-name'],
      ['=', 'keyword.operator.assignment'],
      ['100', 'constant.numeric'],
      [']', 'punctuation.definition.attributes.end'],
      ['raises', 'storage.modifier.raises'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['Gone', 'entity.name.type.error'],
      [')', 'punctuation.definition.parameters.end'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });
});

test('every line of checkout.idl is tokenized, with no text outside a scope but punctuation', () => {
  const checkout = readFileSync(join(REPO_ROOT, 'playground/checkout.idl'), 'utf8');
  const unscoped = tokens(checkout).filter(([value, scope]) => scope === 'source' && value !== ',');
  expect(unscoped).toEqual([]);
});

describe('stream methods', () => {
  test('`stream` before a return type is a modifier; a type, parameter or method named stream is not', () => {
    expect(
      tokens(
        'interface Shop {\n    watch(stream string) stream []Item raises(Gone)\n    stream() stream\n    f() stream stream [optional]\n}',
      ),
    ).toEqual([
      ['interface', 'storage.type.interface'],
      ['Shop', 'entity.name.type.interface'],
      ['{', 'punctuation.definition.block.begin'],
      ['watch', 'entity.name.function'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['stream', 'variable.parameter'],
      ['string', 'support.type.primitive'],
      [')', 'punctuation.definition.parameters.end'],
      ['stream', 'storage.modifier.stream'],
      ['[]', 'storage.modifier.array'],
      ['Item', 'entity.name.type'],
      ['raises', 'storage.modifier.raises'],
      ['(', 'punctuation.definition.parameters.begin'],
      ['Gone', 'entity.name.type.error'],
      [')', 'punctuation.definition.parameters.end'],
      ['stream', 'entity.name.function'],
      ['(', 'punctuation.definition.parameters.begin'],
      [')', 'punctuation.definition.parameters.end'],
      ['stream', 'entity.name.type'],
      ['f', 'entity.name.function'],
      ['(', 'punctuation.definition.parameters.begin'],
      [')', 'punctuation.definition.parameters.end'],
      ['stream', 'storage.modifier.stream'],
      ['stream', 'entity.name.type'],
      ['[optional]', 'storage.modifier.optional'],
      ['}', 'punctuation.definition.block.end'],
    ]);
  });
});
