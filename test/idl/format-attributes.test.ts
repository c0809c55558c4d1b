/**
 * The formatter on attribute lists: every attribute kind, written in any order and spacing, with
 * comments on every line around them, prints in canonical form, keeps every comment, and prints
 * its own output unchanged.
 */
import { describe, expect, test } from 'vitest';
import { checkIdl, parseIdl, printIdl } from '../../src/idl/index.js';

/** Every attribute on fields, parameters and returns; odd spacing; comments above, after and between. */
const MESSY = `// The shop.
namespace   shop   // after namespace

// Sizes.
enum Size {
  small
  large
}

struct Item {
  // Quantity, doc line.
  quantity    int    [ max = 99 ,min=1,  multipleOf=1 ]   // after quantity
  price float [exclusiveMax=1e6,exclusiveMin=0, format = "double"]
  code string[ pattern = "^[A-Z]{3}\\\\d+$" ,maxLength=12,minLength=  3, format="iban"]
  tags   []string [ maxItems=10 , default = [ "a" , "b" ] ,optional,minItems=0, maxLength=20]
  size Size [default="small",optional]
    // between fields
  meta  json [optional ,default= {"k": [1, {"x": null}]}]
  when timestamp [optional]
  site  string [format="uri",pattern="^https?://[a-z]+\\\\]"]  // a ] and a // in a text
}

interface Shop {
  // Lists items.
  list(
    // the query
    q string [minLength=1] , // after q
    cursor string[optional], // after cursor
    perPage int [max=100,optional, default=30,min=1]
  ) []Item [maxItems=100 , optional]   // after list
  get(id string [ pattern="^[0-9]+$" ]) Item // after get
}
`;

const CANONICAL = `// The shop.
namespace shop // after namespace

// Sizes.
enum Size {
    small
    large
}

struct Item {
    // Quantity, doc line.
    quantity     int        [min=1, max=99, multipleOf=1]                 // after quantity
    price        float      [exclusiveMin=0, exclusiveMax=1000000, format="double"]
    code         string     [minLength=3, maxLength=12, pattern="^[A-Z]{3}\\\\d+$", format="iban"]
    tags         []string   [optional, default=["a","b"], maxLength=20, minItems=0, maxItems=10]
    size         Size       [optional, default="small"]
    // between fields
    meta         json       [optional, default={"k":[1,{"x":null}]}]
    when         timestamp  [optional]
    site         string     [pattern="^https?://[a-z]+\\\\]", format="uri"] // a ] and a // in a text
}

interface Shop {
    // Lists items.
    list(
        // the query
        q string [minLength=1], // after q
        cursor string [optional], // after cursor
        perPage int [optional, default=30, min=1, max=100]
    ) []Item [optional, maxItems=100] // after list

    get(id string [pattern="^[0-9]+$"]) Item // after get
}
`;

/** The text of every `//` comment, in order. */
function comments(text: string): string[] {
  return [...text.matchAll(/\/\/ (.*)$/gm)].map((match) => match[1]);
}

describe('the formatter on attribute lists', () => {
  test('prints every list in canonical order and spacing, values in canonical JSON', () => {
    expect(printIdl(parseIdl(MESSY, 'shop.idl'))).toBe(CANONICAL);
  });

  test('is idempotent', () => {
    expect(printIdl(parseIdl(CANONICAL, 'shop.idl'))).toBe(CANONICAL);
  });

  test('keeps every comment, a // inside a quoted pattern is not one', () => {
    const printed = printIdl(parseIdl(MESSY, 'shop.idl'));
    expect(comments(printed)).toEqual(comments(MESSY));
    expect(comments(printed)).toHaveLength(13);
  });

  test('the printed file checks, with the same meaning (only notes for the unchecked formats)', () => {
    const result = checkIdl(parseIdl(CANONICAL, 'shop.idl'));
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['note', 'note']);
    expect(result.model).toBeDefined();
  });
});
