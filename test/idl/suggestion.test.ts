import { describe, expect, test } from 'vitest';
import { createSuggester, MAX_SUGGESTED_NAME_LENGTH, suggestionCandidates } from '../../src/idl/suggestion.js';

describe('did you mean', () => {
  const candidates = suggestionCandidates(['Product', 'Cart', 'Card', 'Order', 'string', 'int']);

  test('the closest name when at most a third of the letters differ, ignoring case', () => {
    const suggest = createSuggester();
    expect(suggest('Prodcut', candidates)).toBe('Product');
    expect(suggest('cart', candidates)).toBe('Cart');
    expect(suggest('Odrer', candidates)).toBe('Order');
    expect(suggest('Strng', candidates)).toBe('string');
    expect(suggest('Customer', candidates)).toBeUndefined();
  });

  test('on a tie, the candidate given first', () => {
    expect(createSuggester()('Carx', candidates)).toBe('Cart');
    expect(createSuggester()('Carx', suggestionCandidates(['Card', 'Cart']))).toBe('Card');
  });

  test('no suggestion for a name longer than the limit', () => {
    const long = 'A'.repeat(MAX_SUGGESTED_NAME_LENGTH);
    const near = suggestionCandidates([long, `${long}A`]);
    expect(createSuggester()(`${long.slice(1)}B`, near)).toBe(long);
    expect(createSuggester()(`${long}B`, near)).toBeUndefined();
  });

  test('once the budget of table cells is spent, no more suggestions', () => {
    const suggest = createSuggester(60);
    expect(suggest('Prodcut', candidates)).toBe('Product');
    expect(suggest('Prodcut', candidates)).toBeUndefined();
  });
});
