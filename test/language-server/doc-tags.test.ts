/**
 * Doc tags in the language server: hover shows them (deprecation first), completion items, document
 * and workspace symbols of deprecated declarations carry the protocol's Deprecated tag, uses of a
 * deprecated name get a Deprecated hint, an unknown tag is an information, and completion offers
 * the tags at the start of a comment line.
 */
import { expect, test } from 'vitest';
import type { CompletionItem, Diagnostic, DocumentSymbol, Hover, SymbolInformation } from 'vscode-languageserver/node';
import { openedDocument } from './lsp-client.js';
import { positionOf } from './positions.js';

const TEXT = `namespace shop

// A product.
// @deprecated use Item
// @example {"id": "p1"}
struct Product {
    id  string
}

struct Item {
    // @todo rename
    id  string
}

interface Shop {
    // Finds one.
    // @readonly
    find(id string) Product
    // @
    list() []Item
}
`;

const session = openedDocument('idlrpc-lsp-tags-', TEXT);

const at = (needle: string, delta = 0) => ({ textDocument: { uri: session.uri }, position: positionOf(TEXT, needle, 0, delta) });

test('hover shows the tags, the deprecation first', async () => {
  const hover = await session.client.request<Hover>('textDocument/hover', at('struct Product', 8));
  expect((hover.contents as { value: string }).value).toBe(
    '```idl\nstruct Product (1 field)\n```\n\n**Deprecated**: use Item\n\nA product.\n\nExample: `{"id": "p1"}`',
  );
  const find = await session.client.request<Hover>('textDocument/hover', at('find(', 1));
  expect((find.contents as { value: string }).value).toContain('Finds one.\n\n**Read-only**');
});

test('a use of a deprecated name is struck through; an unknown tag is an information', async () => {
  const diagnostics = await session.client.diagnostics(session.uri, 1);
  const deprecated = diagnostics.filter((d: Diagnostic) => d.code === 'deprecated');
  expect(deprecated).toMatchObject([{ message: "'Product' is deprecated: use Item", tags: [2], severity: 4 }]);
  expect(deprecated[0].range.start).toEqual(positionOf(TEXT, 'Product\n    // @', 0));
  expect(diagnostics.filter((d: Diagnostic) => d.code === 'unknown-doc-tag')).toMatchObject([
    { severity: 3, range: { start: { line: 10, character: 7 } } },
  ]);
});

test('document symbols, workspace symbols and completion items of deprecated declarations carry the Deprecated tag', async () => {
  const symbols = await session.client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: session.uri } });
  const product = symbols.find((s) => s.name === 'Product')!;
  const item = symbols.find((s) => s.name === 'Item')!;
  expect(product.tags).toEqual([1]);
  expect(item.tags).toBeUndefined();
  const found = await session.client.request<SymbolInformation[]>('workspace/symbol', { query: 'Product' });
  expect(found.find((s) => s.name === 'Product')?.tags).toEqual([1]);
  const completion = await session.client.request<CompletionItem[]>('textDocument/completion', at('Product\n    // @', 0));
  expect(completion.find((c) => c.label === 'Product')?.tags).toEqual([1]);
  expect(completion.find((c) => c.label === 'Item')?.tags).toBeUndefined();
});

test('completion offers the tags after // @', async () => {
  const items = await session.client.request<CompletionItem[]>('textDocument/completion', at('// @\n', 4));
  expect(items.map((i) => i.label)).toEqual(['@deprecated', '@readonly', '@example']);
});
