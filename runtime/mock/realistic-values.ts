/**
 * Values that look like what a field of that name holds: `email` an address, `imageUrl` a URL,
 * `price` a positive amount, `productId` an id. Only a suggestion: the generator keeps a value only
 * when it meets the field's constraints, and makes a plain one otherwise.
 */
import type { SeededRandom } from './seeded-random.js';

const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Margaret', 'Linus', 'Katherine', 'Dennis', 'Frances'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Hamilton', 'Torvalds', 'Johnson', 'Ritchie', 'Allen'];
const PRODUCT_WORDS = ['Kettle', 'Lamp', 'Backpack', 'Notebook', 'Mug', 'Headphones', 'Chair', 'Blanket', 'Teapot', 'Clock'];
const ADJECTIVES = ['Classic', 'Compact', 'Deluxe', 'Handmade', 'Modern', 'Sturdy', 'Vintage', 'Wireless'];
const CITIES = ['Lisbon', 'Oslo', 'Vienna', 'Toronto', 'Melbourne', 'Kyoto', 'Dublin', 'Austin'];
const STREETS = ['Main Street', 'Oak Avenue', 'Harbour Road', 'Elm Street', 'Station Road', 'Park Lane'];
const COUNTRIES = ['PT', 'NO', 'AT', 'CA', 'AU', 'JP', 'IE', 'US'];
const STATES = ['CA', 'NY', 'TX', 'ON', 'VIC', 'WA'];
const WORDS = ['fast', 'quiet', 'bright', 'simple', 'useful', 'durable', 'light', 'warm', 'elegant', 'practical'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];

/** The words of a camelCase or snake_case name, lower-cased: `imageURL` -> image, url. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A string that suits a field (or parameter) of this name, or undefined when the name suggests nothing. */
export function realisticString(name: string, random: SeededRandom): string | undefined {
  const words = nameWords(name);
  const last = words.at(-1) ?? '';
  const has = (...candidates: string[]) => candidates.some((word) => words.includes(word));
  const first = random.pick(FIRST_NAMES);
  const surname = random.pick(LAST_NAMES);
  if (has('email', 'mail')) return `${first}.${surname}@${random.pick(DOMAINS)}`.toLowerCase();
  if (has('url', 'uri', 'href', 'link', 'website', 'homepage')) {
    const what = has('image', 'img', 'photo', 'picture', 'avatar', 'thumbnail')
      ? `images/${random.int(1, 999)}.jpg`
      : `items/${random.int(1, 999)}`;
    return `https://${random.pick(DOMAINS)}/${what}`;
  }
  if (last === 'id' || last === 'key' || last === 'uuid' || last === 'ref') {
    const prefix = words.length > 1 ? words.slice(0, -1).join('_') : 'id';
    return `${prefix}_${random.int(1000, 99999)}`;
  }
  if (has('phone', 'mobile', 'tel')) return `+1-555-${String(random.int(0, 9999)).padStart(4, '0')}`;
  if (has('street', 'line1', 'address')) return `${random.int(1, 250)} ${random.pick(STREETS)}`;
  if (has('city', 'town')) return random.pick(CITIES);
  if (has('country')) return random.pick(COUNTRIES);
  if (has('state', 'province', 'region')) return random.pick(STATES);
  if (has('zip', 'postcode', 'postal')) return String(random.int(10000, 99999));
  if (has('currency')) return random.pick(['EUR', 'USD', 'GBP', 'JPY']);
  if (has('username', 'login', 'handle')) return `${first}${random.int(1, 99)}`.toLowerCase();
  if (last === 'name' && has('first', 'given')) return first;
  if (last === 'name' && has('last', 'family', 'sur')) return surname;
  if (last === 'name' && has('user', 'customer', 'author', 'person', 'full', 'contact', 'owner')) return `${first} ${surname}`;
  if (last === 'name' || has('title', 'label')) return `${random.pick(ADJECTIVES)} ${random.pick(PRODUCT_WORDS)}`;
  if (has('description', 'message', 'comment', 'summary', 'note', 'notes', 'text', 'body', 'bio')) return sentence(random);
  if (has('color', 'colour')) return random.pick(['red', 'green', 'blue', 'black', 'white']);
  return undefined;
}

/** A short sentence of plain words. */
export function sentence(random: SeededRandom): string {
  const count = random.int(4, 8);
  const words = Array.from({ length: count }, () => random.pick(WORDS));
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
}

/** A plain word, for a string whose name suggests nothing. */
export function plainWord(random: SeededRandom): string {
  return random.pick([...WORDS, ...PRODUCT_WORDS.map((word) => word.toLowerCase())]);
}

/** How a number field of this name should look. */
export type NumberKind = 'money' | 'count' | 'percent' | 'rating' | 'age' | 'unixSeconds' | 'unixMillis' | 'plain';

/** What a number of this name stands for (`price` money, `quantity` a count, `createdAt` a time). */
export function numberKind(name: string): NumberKind {
  const words = nameWords(name);
  const has = (...candidates: string[]) => candidates.some((word) => words.includes(word));
  if (has('price', 'amount', 'total', 'subtotal', 'cost', 'balance', 'fee', 'tax', 'salary', 'revenue')) return 'money';
  if (has('ms', 'millis', 'milliseconds')) return 'unixMillis';
  if (has('at', 'time', 'timestamp', 'date', 'created', 'updated', 'expires')) return 'unixSeconds';
  if (has('percent', 'percentage', 'ratio', 'rate')) return 'percent';
  if (has('rating', 'score', 'stars')) return 'rating';
  if (has('age')) return 'age';
  if (has('quantity', 'qty', 'count', 'stock', 'size', 'length', 'number', 'num', 'total', 'page', 'limit', 'index', 'version'))
    return 'count';
  return 'plain';
}
