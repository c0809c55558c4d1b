/**
 * The language server over real stdio (`idlrpc -lsp --stdio`), driven by vscode-jsonrpc: every
 * feature on playground/checkout.idl, on broken files and on a file importing another.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver/node';
import { printIdl } from '../../src/idl/format.js';
import { parseIdl } from '../../src/idl/parser.js';
import { ensureBuilt, REPO_ROOT, runCli } from '../cli/run-cli.js';
import { fileUri, type LspClient, startLspClient } from './lsp-client.js';
import { positionOf, rangeOf, showRange } from './positions.js';

const CHECKOUT_PATH = join(REPO_ROOT, 'playground/checkout.idl');
const CHECKOUT = readFileSync(CHECKOUT_PATH, 'utf8');
const CHECKOUT_URI = fileUri(CHECKOUT_PATH);

let client: LspClient;
let folder: string;

beforeAll(async () => {
  ensureBuilt();
  folder = mkdtempSync(join(tmpdir(), 'idlrpc-lsp-'));
  client = await startLspClient();
  client.open(CHECKOUT_URI, CHECKOUT);
});

afterAll(async () => {
  await client?.close();
  rmSync(folder, { recursive: true, force: true });
});

const at = (uri: string, text: string, needle: string, occurrence = 0, delta = 0) => ({
  textDocument: { uri },
  position: positionOf(text, needle, occurrence, delta),
});

/** `line:column: message` of each diagnostic, 1-based like the CLI prints it. */
const headers = (diagnostics: Diagnostic[]) =>
  diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.message}`);

/** The same of `idlrpc -validate` on `text`, written to `name` in the test folder. */
async function cliHeaders(name: string, text: string): Promise<string[]> {
  writeFileSync(join(folder, name), text);
  const run = await runCli(['-validate', name], folder);
  const prefix = `${name}:`;
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length).replace(/^(\d+:\d+): error: /, '$1: '));
}

test('initialize announces every feature', () => {
  const capabilities = client.initializeResult.capabilities;
  expect(capabilities.textDocumentSync).toEqual({ openClose: true, change: 2 });
  for (const feature of [
    'hoverProvider',
    'definitionProvider',
    'referencesProvider',
    'renameProvider',
    'completionProvider',
    'documentSymbolProvider',
    'workspaceSymbolProvider',
    'foldingRangeProvider',
    'documentFormattingProvider',
    'codeActionProvider',
  ]) {
    expect(capabilities, feature).toHaveProperty(feature);
  }
});

describe('diagnostics', () => {
  test('checkout.idl has none', async () => {
    expect(await client.diagnostics(CHECKOUT_URI, 1)).toEqual([]);
  });

  test('check errors: exact ranges, the CLI messages, related locations', async () => {
    const text =
      'namespace shop\n\nstruct Item {\n    price Mony\n}\n\nstruct Money {\n    amount int\n}\n\nstruct Money {\n    cents int\n}\n';
    const uri = fileUri(join(folder, 'check.idl'));
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics).toEqual([
      {
        range: rangeOf(text, 'Mony'),
        severity: 1,
        code: 'unknown-type',
        source: 'idlrpc',
        message: "unknown type 'Mony'; did you mean 'Money'?",
      },
      {
        range: rangeOf(text, 'Money', 1),
        severity: 1,
        code: 'duplicate-type',
        source: 'idlrpc',
        message: "'Money' is already declared as a struct on line 7",
        relatedInformation: [{ location: { uri, range: rangeOf(text, 'Money', 0) }, message: "'Money' is first declared here" }],
      },
    ]);
    expect(headers(diagnostics)).toEqual(await cliHeaders('check.idl', text));
  });

  test('syntax errors of a broken file, then none once it is fixed', async () => {
    const text = 'namespace shop\n\nstruct Item {\n    price\n}\n\ninterface Shop {\n    buy(item Item Item\n}\n';
    const uri = fileUri(join(folder, 'broken.idl'));
    client.open(uri, text);
    const diagnostics = await client.diagnostics(uri, 1);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((d) => d.code === 'syntax' && d.source === 'idlrpc')).toBe(true);
    expect(headers(diagnostics)).toEqual(await cliHeaders('broken.idl', text));
    expect(diagnostics.map((d) => showRange(d.range))).toEqual(['3:9-3:9', '7:18-7:22']);
    const version = client.replace(uri, 'namespace shop\n\nstruct Item {\n    price int\n}\n');
    expect(await client.diagnostics(uri, version)).toEqual([]);
  });
});

describe('hover', () => {
  test('a reference shows the one-line summary of what it names', async () => {
    const hover = await client.request<Hover>('textDocument/hover', at(CHECKOUT_URI, CHECKOUT, 'cart             Cart', 0, 19));
    expect(hover.contents).toEqual({ kind: 'markdown', value: '```idl\nstruct Cart (3 fields)\n```' });
    expect(showRange(hover.range!)).toBe('54:21-54:25');
  });

  test('with the doc comment', async () => {
    const hover = await client.request<Hover>('textDocument/hover', at(CHECKOUT_URI, CHECKOUT, 'status           OrderStatus', 0, 20));
    expect(hover.contents).toEqual({
      kind: 'markdown',
      value:
        '```idl\nenum OrderStatus { pending, paid, shipped, delivered, cancelled }\n```\n\nLifecycle of an order. New orders start as pending.',
    });
  });

  test('methods, fields, errors and enum values', async () => {
    const value = async (needle: string, delta = 0) =>
      ((await client.request<Hover>('textDocument/hover', at(CHECKOUT_URI, CHECKOUT, needle, 0, delta))).contents as { value: string })
        .value;
    expect(await value('createOrder')).toBe(
      '```idl\nOrderService.createOrder(request CreateOrderRequest) CheckoutResponse raises(CartNotFound, CartEmpty, PaymentFailed, OutOfStock, InvalidAddress)\n```\n\nTurns a cart into a pending order.',
    );
    expect(await value('imageUrl')).toBe('```idl\nProduct.imageUrl string [optional]\n```');
    expect(await value('raises(CartNotFound', 8)).toBe('```idl\nerror 1001 CartNotFound "cart does not exist"\n```');
    expect(await value('    paypal', 5)).toBe('```idl\nPaymentMethod.paypal (enum value)\n```');
  });

  test('fields, parameters and methods show their attribute lists: optional, default and constraints, in canonical order', async () => {
    const text =
      'namespace shop\n\nstruct Line {\n    qty  int [max=99,  min=1]\n    tags []string [optional, maxLength=20, maxItems=10]\n}\n\n' +
      'interface Shop {\n    list(cursor string [optional], perPage int [max=100, optional, default=30]) []Line [maxItems=100]\n}\n';
    const uri = fileUri(join(folder, 'attributes-hover.idl'));
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const value = async (needle: string, delta = 0) =>
      ((await client.request<Hover>('textDocument/hover', at(uri, text, needle, 0, delta))).contents as { value: string }).value;
    expect(await value('qty')).toBe('```idl\nLine.qty int [min=1, max=99]\n```');
    expect(await value('tags')).toBe('```idl\nLine.tags []string [optional, maxLength=20, maxItems=10]\n```');
    expect(await value('perPage')).toBe('```idl\nperPage int [optional, default=30, max=100] (parameter of Shop.list)\n```');
    expect(await value('list')).toBe(
      '```idl\nShop.list(cursor string [optional], perPage int [optional, default=30, max=100]) []Line [maxItems=100]\n```',
    );
  });

  test('nothing between names', async () => {
    expect(await client.request('textDocument/hover', at(CHECKOUT_URI, CHECKOUT, '{'))).toBeNull();
  });
});

describe('navigation', () => {
  test('definition of a type name and a raises error', async () => {
    const definition = async (needle: string, delta: number) =>
      (await client.request<Location[]>('textDocument/definition', at(CHECKOUT_URI, CHECKOUT, needle, 0, delta))).map(
        (l) => `${l.uri === CHECKOUT_URI ? '' : l.uri}${showRange(l.range)}`,
      );
    expect(await definition('[]CartItem', 2)).toEqual([showRange(rangeOf(CHECKOUT, 'CartItem'))]);
    expect(await definition('raises(CartNotFound', 8)).toEqual(['82:9-82:21']);
  });

  test('definition of an extends parent', async () => {
    const text = 'namespace a\n\nstruct Base {\n    id int\n}\n\nstruct Child extends Base {\n    name string\n}\n';
    const uri = fileUri(join(folder, 'extends.idl'));
    client.open(uri, text);
    expect(await client.request('textDocument/definition', at(uri, text, 'extends Base', 0, 9))).toEqual([
      { uri, range: rangeOf(text, 'Base') },
    ]);
  });

  test('references of a struct, with and without the declaration', async () => {
    const references = async (includeDeclaration: boolean) =>
      (
        await client.request<Location[]>('textDocument/references', {
          ...at(CHECKOUT_URI, CHECKOUT, 'struct Cart {', 0, 7),
          context: { includeDeclaration },
        })
      ).map((l) => showRange(l.range));
    expect(await references(true)).toEqual(['37:7-37:11', '54:21-54:25', '102:40-102:44', '106:27-106:31']);
    expect(await references(false)).toEqual(['54:21-54:25', '102:40-102:44', '106:27-106:31']);
  });
});

describe('rename', () => {
  test('a struct and every reference to it', async () => {
    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      ...at(CHECKOUT_URI, CHECKOUT, 'struct CartItem', 0, 7),
      newName: 'LineItem',
    });
    expect(edit.changes![CHECKOUT_URI].map((e) => `${showRange(e.range)} ${e.newText}`)).toEqual([
      '31:7-31:15 LineItem',
      '39:19-39:27 LineItem',
    ]);
  });

  test('prepareRename gives the name under the cursor', async () => {
    expect(await client.request('textDocument/prepareRename', at(CHECKOUT_URI, CHECKOUT, '    subtotal', 0, 6))).toEqual({
      range: rangeOf(CHECKOUT, 'subtotal'),
      placeholder: 'subtotal',
    });
  });

  test('refused: a reserved word, an invalid name, a taken name', async () => {
    const rename = (newName: string) =>
      client.request('textDocument/rename', { ...at(CHECKOUT_URI, CHECKOUT, 'struct CartItem', 0, 7), newName }).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    expect(await rename('string')).toBe("'string' is a reserved word and cannot be used as a name");
    expect(await rename('1Item')).toBe("'1Item' is not a valid name: use letters, digits and underscores, starting with a letter");
    expect(await rename('Cart')).toBe("'Cart' is already declared on line 38");
    const field = await client
      .request('textDocument/rename', { ...at(CHECKOUT_URI, CHECKOUT, '    quantity     int\n    price', 0, 4), newName: 'price' })
      .then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    expect(field).toBe("'price' is already declared on line 35");
  });
});

describe('completion', () => {
  const labels = async (uri: string, text: string, needle: string, delta: number) =>
    (await client.request<CompletionItem[]>('textDocument/completion', at(uri, text, needle, 0, delta))).map((item) => item.label);

  test('keywords, type names, [optional] and raises', async () => {
    const text =
      'namespace shop\n\nerrors {\n    1 Gone "gone"\n}\n\nenum Size {\n    small\n}\n\nstruct Item {\n    size S\n    count int \n}\n\n' +
      'interface Shop {\n    buy(item I) Item raises(G)\n    sell() Item \n}\n\n';
    const uri = fileUri(join(folder, 'completion.idl'));
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const types = ['string', 'int', 'float', 'bool', 'timestamp', 'date', 'bytes', 'json', 'map[string]', 'Size', 'Item'];
    expect(await labels(uri, text, 'size S', 6)).toEqual(types);
    expect(await labels(uri, text, 'count int ', 10)).toEqual(['[optional]']);
    expect(await labels(uri, text, 'item I', 6)).toEqual(types);
    expect(await labels(uri, text, 'raises(G', 8)).toEqual(['Gone']);
    expect(await labels(uri, text, 'sell() Item ', 12)).toEqual(['[optional]', 'raises']);
    expect(await labels(uri, text, '}\n\n', 3)).toEqual(['namespace', 'import', 'struct', 'enum', 'union', 'errors', 'interface']);
    expect(await labels(uri, text, '    small', 4)).toEqual([]);
  });

  test('inside an attribute list, after [ or a comma: the names that fit the type, those written left out', async () => {
    const text =
      'namespace shop\n\nenum Size {\n    small\n}\n\nstruct Item {\n    count int [\n    name string [optional, \n' +
      '    tags []string [maxItems=3, pattern="a,b", m\n    size Size [\n}\n\n' +
      'interface Shop {\n    get() Item [\n    list(q string [min, perPage int [optional, default=[1, 2], \n}\n';
    const uri = fileUri(join(folder, 'attributes-completion.idl'));
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    const numbers = ['optional', 'default', 'min', 'max', 'exclusiveMin', 'exclusiveMax', 'multipleOf', 'format'];
    expect(await labels(uri, text, 'count int [', 11)).toEqual(numbers);
    expect(await labels(uri, text, 'name string [optional, ', 23)).toEqual(['default', 'minLength', 'maxLength', 'pattern', 'format']);
    expect(await labels(uri, text, 'pattern="a,b", m', 16)).toEqual([
      'optional',
      'default',
      'minLength',
      'maxLength',
      'minItems',
      'format',
    ]);
    expect(await labels(uri, text, 'size Size [', 11)).toEqual(['optional', 'default']);
    expect(await labels(uri, text, 'q string [', 10)).toEqual(['optional', 'default', 'minLength', 'maxLength', 'pattern', 'format']);
    expect(await labels(uri, text, 'default=[1, 2], ', 16)).toEqual(['min', 'max', 'exclusiveMin', 'exclusiveMax', 'multipleOf', 'format']);
    expect(await labels(uri, text, 'get() Item [', 12)).toEqual(['optional']);
    const items = await client.request<CompletionItem[]>('textDocument/completion', at(uri, text, 'count int [', 0, 11));
    expect(items[2]).toMatchObject({ label: 'min', insertText: 'min=', detail: 'min=<number>: the smallest value allowed' });
  });

  test('a struct named like a built-in type is offered as itself, not also as the built-in', async () => {
    const text = 'namespace shop\n\nstruct date {\n    day int\n}\n\nstruct Item {\n    when d\n}\n';
    const uri = fileUri(join(folder, 'shadowed.idl'));
    client.open(uri, text);
    await client.diagnostics(uri, 1);
    expect(await labels(uri, text, 'when d', 6)).toEqual([
      'string',
      'int',
      'float',
      'bool',
      'timestamp',
      'bytes',
      'json',
      'map[string]',
      'date',
      'Item',
    ]);
  });

  test('items carry the summary of what they name', async () => {
    const items = await client.request<CompletionItem[]>('textDocument/completion', at(CHECKOUT_URI, CHECKOUT, 'raises(', 0, 7));
    expect(items.map((i) => `${i.label}: ${i.detail}`)).toEqual([
      'CartNotFound: error 1001 CartNotFound "cart does not exist"',
      'CartEmpty: error 1002 CartEmpty "cart has no items"',
      'PaymentFailed: error 1003 PaymentFailed "payment method rejected"',
      'OutOfStock: error 1004 OutOfStock "insufficient inventory"',
      'InvalidAddress: error 1005 InvalidAddress "shipping address validation failed"',
      'OrderNotFound: error 1006 OrderNotFound "order does not exist"',
    ]);
  });
});

test('outline', async () => {
  const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: CHECKOUT_URI } });
  expect(symbols.map((s) => `${s.kind} ${s.name}`)).toEqual([
    '3 checkout',
    '10 OrderStatus',
    '10 PaymentMethod',
    '23 Product',
    '23 CartItem',
    '23 Cart',
    '23 Address',
    '23 Order',
    '23 AddToCartRequest',
    '23 CreateOrderRequest',
    '23 CheckoutResponse',
    '14 CartNotFound',
    '14 CartEmpty',
    '14 PaymentFailed',
    '14 OutOfStock',
    '14 InvalidAddress',
    '14 OrderNotFound',
    '11 CatalogService',
    '11 CartService',
    '11 OrderService',
  ]);
  const cart = symbols.find((s) => s.name === 'Cart')!;
  expect(cart.children!.map((c) => `${c.kind} ${c.name} ${c.detail}`)).toEqual([
    '8 cartId Cart.cartId string',
    '8 items Cart.items []CartItem',
    '8 subtotal Cart.subtotal float',
  ]);
  expect(showRange(cart.range)).toBe('37:0-42:1');
  expect(showRange(cart.selectionRange)).toBe('37:7-37:11');
});

test('workspace symbols of open documents', async () => {
  const symbols = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'cartitem' });
  expect(symbols.map((s) => `${s.name} ${s.location.uri === CHECKOUT_URI} ${showRange(s.location.range)}`)).toEqual([
    'CartItem true 31:7-31:15',
  ]);
});

test('folding ranges: blocks and comment runs', async () => {
  const ranges = await client.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri: CHECKOUT_URI } });
  expect(ranges).toContainEqual({ startLine: 4, endLine: 10 });
  expect(ranges).toContainEqual({ startLine: 100, endLine: 110 });
  const text = 'namespace a\n\n// one\n// two\n// three\nstruct B {\n    c int\n}\n';
  const uri = fileUri(join(folder, 'folding.idl'));
  client.open(uri, text);
  expect(await client.request('textDocument/foldingRange', { textDocument: { uri } })).toEqual([
    { startLine: 2, endLine: 4, kind: 'comment' },
    { startLine: 5, endLine: 7 },
  ]);
});

describe('formatting', () => {
  test('one edit giving the formatter output', async () => {
    const text = 'namespace  a\nstruct B{\nc   int\n   d string [optional]\n}\n';
    const uri = fileUri(join(folder, 'format.idl'));
    client.open(uri, text);
    const edits = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 4, insertSpaces: true },
    });
    expect(edits).toEqual([
      { range: { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } }, newText: printIdl(parseIdl(text, 'format.idl')) },
    ]);
  });

  test('none for a formatted file or one with syntax errors', async () => {
    expect(
      await client.request('textDocument/formatting', { textDocument: { uri: CHECKOUT_URI }, options: { tabSize: 4, insertSpaces: true } }),
    ).toEqual([]);
    const uri = fileUri(join(folder, 'broken-format.idl'));
    client.open(uri, 'namespace a\nstruct {\n');
    expect(await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } })).toEqual(
      [],
    );
  });
});

test('quick fix: did you mean', async () => {
  const text = 'namespace shop\n\nstruct Money {\n    cents int\n}\n\nstruct Item {\n    price Mony\n}\n';
  const uri = fileUri(join(folder, 'fix.idl'));
  client.open(uri, text);
  const diagnostics = await client.diagnostics(uri, 1);
  const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostics[0].range,
    context: { diagnostics },
  });
  expect(actions.map((a) => [a.title, a.edit!.changes![uri]])).toEqual([
    ["Change to 'Money'", [{ range: rangeOf(text, 'Mony'), newText: 'Money' }]],
  ]);
});

describe('a file importing another', () => {
  const common = 'namespace common\n\n// An amount of money.\nstruct Money {\n    cents int\n}\n\nerrors {\n    1 Broke "no money"\n}\n';
  const main = 'namespace shop\n\nimport "common.idl"\n\ninterface Shop {\n    pay(amount common.Money) bool raises(common.Broke)\n}\n';
  let mainUri: string;
  let commonUri: string;

  beforeAll(async () => {
    writeFileSync(join(folder, 'common.idl'), common);
    mainUri = fileUri(join(folder, 'main.idl'));
    commonUri = fileUri(join(folder, 'common.idl'));
    client.open(mainUri, main);
    expect(await client.diagnostics(mainUri, 1)).toEqual([]);
  });

  test('definition and hover of a qualified name, definition of the import path', async () => {
    expect(await client.request('textDocument/definition', at(mainUri, main, 'common.Money', 0, 8))).toEqual([
      { uri: commonUri, range: rangeOf(common, 'Money') },
    ]);
    expect(await client.request('textDocument/definition', at(mainUri, main, 'common.Broke', 0, 8))).toEqual([
      { uri: commonUri, range: rangeOf(common, 'Broke') },
    ]);
    expect(await client.request('textDocument/definition', at(mainUri, main, '"common.idl"', 0, 3))).toEqual([
      { uri: commonUri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    ]);
    const hover = await client.request<Hover>('textDocument/hover', at(mainUri, main, 'common.Money', 0, 8));
    expect((hover.contents as { value: string }).value).toBe('```idl\nstruct common.Money (1 field)\n```\n\nAn amount of money.');
    expect(
      await client.request('textDocument/references', {
        ...at(mainUri, main, 'common.Money', 0, 8),
        context: { includeDeclaration: true },
      }),
    ).toEqual([
      { uri: commonUri, range: rangeOf(common, 'Money') },
      { uri: mainUri, range: rangeOf(main, 'common.Money') },
    ]);
  });

  test('completion offers imported names qualified', async () => {
    const items = await client.request<CompletionItem[]>('textDocument/completion', at(mainUri, main, 'raises(', 0, 7));
    expect(items.map((i) => i.label)).toEqual(['common.Broke']);
  });

  test('errors of the imported file are published for it; unsaved edits of it count', async () => {
    const broken = 'namespace common\n\nstruct Money {\n    cents Cents\n}\n\nerrors {\n    1 Broke "no money"\n}\n';
    writeFileSync(join(folder, 'common.idl'), broken);
    const version = client.replace(mainUri, `${main}\n`);
    const inCommon = await client.diagnostics(commonUri);
    expect(headers(inCommon)).toEqual(["4:11: unknown type 'Cents'"]);
    expect(await client.diagnostics(mainUri, version)).toEqual([]);
    // The editor's unsaved text of common.idl wins over the file on disk.
    client.open(commonUri, common);
    expect(await client.diagnostics(commonUri, 1)).toEqual([]);
    const fixed = client.replace(mainUri, main);
    expect(await client.diagnostics(mainUri, fixed)).toEqual([]);
    writeFileSync(join(folder, 'common.idl'), common);
  });
});

test('answers questions about unknown documents and impossible places without failing', async () => {
  const unknown = { textDocument: { uri: 'file:///nowhere.idl' }, position: { line: 0, character: 0 } };
  expect(await client.request('textDocument/hover', unknown)).toBeNull();
  expect(
    await client.request('textDocument/hover', { textDocument: { uri: CHECKOUT_URI }, position: { line: 10_000, character: 999 } }),
  ).toBeNull();
  expect(
    await client.request('textDocument/completion', { textDocument: { uri: CHECKOUT_URI }, position: { line: -1, character: -5 } }),
  ).toHaveLength(7);
  expect(
    await client.request('textDocument/completion', { textDocument: { uri: CHECKOUT_URI }, position: { line: 0, character: 5 } }),
  ).toEqual([]);
  expect(client.stderr()).toBe('');
  expect(client.logged()).toEqual([]);
});
