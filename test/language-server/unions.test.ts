/**
 * Unions in the language server: completion offers `union` where a declaration starts,
 * `discriminator=` in a union's attribute list, struct names in its variant lines and union names
 * where a type goes; hover shows the discriminator and variants; definition, references and rename
 * reach union names and variant types.
 */
import { describe, expect, test } from 'vitest';
import type { Hover, Location, WorkspaceEdit } from 'vscode-languageserver/node';
import { completeAfter as completeAfterIn, completionLabels, openedDocument } from './lsp-client.js';
import { positionOf } from './positions.js';

const TEXT = `namespace shop

struct Card {
    number string
}

struct Transfer {
    iban string
}

enum Currency {
    eur
}

// How a customer pays.
union Payment [discriminator=type] {
    card          Card
    bank_transfer Transfer
}

interface Shop {
    pay(payment Payment) Card
}
`;

const session = openedDocument('idlrpc-lsp-unions-', TEXT);

const at = (text: string, needle: string, delta = 0, target = session.uri) => ({
  textDocument: { uri: target },
  position: positionOf(text, needle, 0, delta),
});
const labels = completionLabels;
const completeAfter = (before: string, name: string) => completeAfterIn(session, TEXT, before, name);

describe('completion', () => {
  test('union where a declaration starts', async () => {
    expect(labels(await completeAfter('un', 'top'))).toContain('union');
  });

  test('discriminator= in a union attribute list', async () => {
    expect(labels(await completeAfter('union Other [', 'attribute'))).toEqual(['discriminator=']);
  });

  test('struct names (no enums, no unions) in a variant line', async () => {
    expect(labels(await completeAfter('union Other {\n    a ', 'variant')).sort()).toEqual(['Card', 'Transfer']);
  });

  test('union names where a type goes', async () => {
    const items = await completeAfter('struct Order {\n    payment ', 'type');
    expect(labels(items)).toContain('Payment');
    expect(items.find((item) => item.label === 'Payment')?.detail).toBe(
      'union Payment [discriminator=type] { card Card, bank_transfer Transfer }',
    );
  });
});

test('hover on a union shows its discriminator and variants', async () => {
  const hover = await session.client.request<Hover>('textDocument/hover', at(TEXT, 'union Payment', 7));
  const value = (hover.contents as { value: string }).value;
  expect(value).toContain('union Payment [discriminator=type]');
  expect(value).toContain('card Card');
  expect(value).toContain('How a customer pays.');
});

describe('navigation and rename', () => {
  test('definition of a variant type and of a union used as a parameter type', async () => {
    const definition = (needle: string, delta: number) =>
      session.client
        .request<Location[]>('textDocument/definition', at(TEXT, needle, delta))
        .then((ls) => ls.map((l) => l.range.start.line));
    expect(await definition('bank_transfer Transfer', 14)).toEqual([6]);
    expect(await definition('payment Payment', 8)).toEqual([15]);
  });

  test('references of a struct include its variant line; of a union, its uses', async () => {
    const lines = (needle: string, delta: number) =>
      session.client
        .request<Location[]>('textDocument/references', { ...at(TEXT, needle, delta), context: { includeDeclaration: false } })
        .then((ls) => ls.map((l) => l.range.start.line));
    expect(await lines('struct Card', 7)).toEqual([16, 21]);
    expect(await lines('union Payment', 6)).toEqual([21]);
  });

  test('rename of a union and of a variant struct edits every reference', async () => {
    const edits = async (needle: string, delta: number, newName: string) => {
      const edit = await session.client.request<WorkspaceEdit>('textDocument/rename', { ...at(TEXT, needle, delta), newName });
      return (edit.changes?.[session.uri] ?? []).map((e) => `${e.range.start.line}:${e.range.start.character} ${e.newText}`);
    };
    expect(await edits('union Payment', 6, 'Pay')).toEqual(['15:6 Pay', '21:16 Pay']);
    expect((await edits('struct Transfer', 7, 'Wire')).sort()).toEqual(['17:18 Wire', '6:7 Wire']);
  });
});
