/**
 * Stream methods in the language server: completion offers `stream` where a return type goes and
 * the types after it, no `[optional]` after a stream's item type; hover and the outline show
 * `stream`; definition reaches the item type; the diagnostics of an optional item are published.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Diagnostic, DocumentSymbol, Hover, Location } from 'vscode-languageserver/node';
import { completeAfter as completeAfterIn, completionLabels, fileUri, openedDocument } from './lsp-client.js';
import { positionOf } from './positions.js';

const TEXT = `namespace shop

struct Order {
    id string
}

errors {
    1001 OrderNotFound "no such order"
}

interface OrderService {
    // The order as it changes.
    watchOrder(orderId string) stream Order raises(OrderNotFound)
}
`;

const session = openedDocument('idlrpc-lsp-streams-', TEXT);

const at = (text: string, needle: string, delta = 0, target = session.uri) => ({
  textDocument: { uri: target },
  position: positionOf(text, needle, 0, delta),
});
const labels = completionLabels;
const completeAfter = (before: string, name: string) => completeAfterIn(session, TEXT, before, name);

describe('completion', () => {
  test('`stream` and the types where a return type goes', async () => {
    const items = labels(await completeAfter('interface Other {\n    watch(id string) ', 'return-type'));
    expect(items).toContain('stream');
    expect(items).toContain('Order');
    expect(items).toContain('string');
  });

  test('the types, not `stream` again, after `stream `', async () => {
    const items = labels(await completeAfter('interface Other {\n    watch(id string) stream ', 'item-type'));
    expect(items).toContain('Order');
    expect(items).not.toContain('stream');
  });

  test('`stream` is not offered where a parameter or field type goes', async () => {
    expect(labels(await completeAfter('interface Other {\n    watch(id ', 'parameter'))).not.toContain('stream');
    expect(labels(await completeAfter('struct Other {\n    id ', 'field'))).not.toContain('stream');
  });

  test('after a stream item type: raises, not [optional]', async () => {
    expect(labels(await completeAfter('interface Other {\n    watch(id string) stream Order ', 'after-item'))).toEqual(['raises']);
    expect(labels(await completeAfter('interface Other {\n    watch(id string) Order ', 'after-plain'))).toEqual(['[optional]', 'raises']);
  });

  test('in the attribute list of a stream item: the constraints, not optional', async () => {
    const items = labels(await completeAfter('interface Other {\n    watch(id string) stream int [', 'item-list'));
    expect(items).toContain('min');
    expect(items).not.toContain('optional');
  });
});

test('hover on a stream method shows `stream` before its item type', async () => {
  const hover = await session.client.request<Hover>('textDocument/hover', at(TEXT, 'watchOrder(', 2));
  const value = (hover.contents as { value: string }).value;
  expect(value).toContain('OrderService.watchOrder(orderId string) stream Order raises(OrderNotFound)');
  expect(value).toContain('The order as it changes.');
});

test('the outline shows the method as a stream', async () => {
  const symbols = await session.client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: session.uri } });
  const method = symbols.find((s) => s.name === 'OrderService')?.children?.find((s) => s.name === 'watchOrder');
  expect(method?.detail).toContain(') stream Order raises(OrderNotFound)');
});

test('definition of a stream item type is its struct', async () => {
  const locations = await session.client.request<Location[]>('textDocument/definition', at(TEXT, 'stream Order', 8));
  expect(locations.map((l) => l.range.start.line)).toEqual([2]);
});

test('an optional stream item is published as an error at its place', async () => {
  const text = TEXT.replace('stream Order raises', 'stream Order [optional] raises');
  const uri = fileUri(join(session.folder, 'optional-item.idl'));
  session.client.open(uri, text);
  const diagnostics: Diagnostic[] = await session.client.diagnostics(uri, 1);
  expect(diagnostics.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`)).toEqual(['12:38 optional-stream-item']);
});
