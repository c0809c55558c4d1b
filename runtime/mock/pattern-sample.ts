/**
 * A string that matches a regular expression, for string constraints with `pattern`: the common
 * part of the syntax (literals, escapes such as `\d` and `\w`, classes, `.`, groups, `|`, the
 * quantifiers, `^` and `$`). A pattern with other syntax (lookarounds, back references, `\p{...}`)
 * gives undefined: the caller falls back to other values and says which pattern it could not meet.
 */
import type { SeededRandom } from './seeded-random.js';

/** The most atoms one sample reads and writes: `(a{1000}){1000}` is refused, not written. */
const MAX_ATOMS = 20_000;

/** The most repetitions an open quantifier (`*`, `+`, `{n,}`) makes: a few, as a person would write. */
const OPEN_REPEAT_EXTRA = 3;

const CLASS_ESCAPES: Readonly<Record<string, string>> = {
  d: '0123456789',
  w: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_',
  s: ' ',
};
const LITERAL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };
const PLAIN_CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789';

class Unsupported extends Error {}

/** Writes a match of the pattern, or undefined when it uses syntax this sampler does not know. */
export function samplePattern(pattern: string, random: SeededRandom): string | undefined {
  try {
    const sampler = new PatternSampler(pattern, random);
    const text = sampler.alternation();
    if (sampler.position !== pattern.length) throw new Unsupported();
    return text;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** A recursive-descent walk over the pattern that writes one match as it reads. */
class PatternSampler {
  position = 0;
  #atoms = 0;

  constructor(
    private readonly pattern: string,
    private readonly random: SeededRandom,
  ) {}

  alternation(): string {
    // Each branch is read (to find where the group ends); one of them, picked first, is kept.
    const texts = [this.sequence()];
    while (this.pattern[this.position] === '|') {
      this.position++;
      texts.push(this.sequence());
    }
    return this.random.pick(texts);
  }

  private sequence(): string {
    let text = '';
    while (this.position < this.pattern.length && this.pattern[this.position] !== '|' && this.pattern[this.position] !== ')') {
      text += this.quantified();
    }
    return text;
  }

  private quantified(): string {
    const start = this.position;
    this.atom();
    const atomEnd = this.position;
    const [min, max] = this.quantifier();
    const count = this.random.int(min, max);
    let text = '';
    for (let index = 0; index < count; index++) {
      this.position = start;
      text += this.atom();
    }
    this.position = atomEnd;
    this.quantifier();
    return text;
  }

  /** The bounds of the quantifier after an atom ([1, 1] without one); a lazy `?` after it changes nothing here. */
  private quantifier(): [number, number] {
    const char = this.pattern[this.position];
    let bounds: [number, number] | undefined;
    if (char === '?') bounds = [0, 1];
    else if (char === '*') bounds = [0, OPEN_REPEAT_EXTRA];
    else if (char === '+') bounds = [1, 1 + OPEN_REPEAT_EXTRA];
    if (bounds) this.position++;
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.position));
      if (!match) return [1, 1];
      this.position += match[0].length;
      const min = Number(match[1]);
      bounds = [min, match[2] === undefined ? min : match[3] === '' ? min + OPEN_REPEAT_EXTRA : Number(match[3])];
    } else return [1, 1];
    if (this.pattern[this.position] === '?') this.position++;
    return bounds;
  }

  private atom(): string {
    if (++this.#atoms > MAX_ATOMS) throw new Unsupported();
    const char = this.pattern[this.position++];
    if (char === '^' || char === '$') return '';
    if (char === '.') return this.random.pick([...PLAIN_CHARACTERS]);
    if (char === '(') return this.group();
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape(false);
    if (char === undefined || '*+?{})|'.includes(char)) throw new Unsupported();
    return char;
  }

  private group(): string {
    if (this.pattern[this.position] === '?') {
      // Only non-capturing and named groups: lookarounds say what may not follow, which a sample cannot keep.
      if (this.pattern.startsWith('?:', this.position)) this.position += 2;
      else if (/^\?<[A-Za-z_$][\w$]*>/.test(this.pattern.slice(this.position)))
        this.position = this.pattern.indexOf('>', this.position) + 1;
      else throw new Unsupported();
    }
    const text = this.alternation();
    if (this.pattern[this.position++] !== ')') throw new Unsupported();
    return text;
  }

  /** `[...]`: one of the characters it allows (a negated class: a plain character it does not name). */
  private characterClass(): string {
    const negated = this.pattern[this.position] === '^';
    if (negated) this.position++;
    const allowed: string[] = [];
    while (this.pattern[this.position] !== ']') {
      if (this.position >= this.pattern.length) throw new Unsupported();
      const from = this.classCharacter();
      if (this.pattern[this.position] === '-' && this.pattern[this.position + 1] !== ']' && from.length === 1) {
        this.position++;
        const to = this.classCharacter();
        if (to.length !== 1) throw new Unsupported();
        for (let code = from.codePointAt(0)!; code <= to.codePointAt(0)! && allowed.length < 512; code++)
          allowed.push(String.fromCodePoint(code));
      } else allowed.push(...from);
    }
    this.position++;
    if (!negated) {
      if (allowed.length === 0) throw new Unsupported();
      return this.random.pick(allowed);
    }
    const candidates = [...PLAIN_CHARACTERS, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_-'].filter((c) => !allowed.includes(c));
    if (candidates.length === 0) throw new Unsupported();
    return this.random.pick(candidates);
  }

  /** One member of a class: a character, or every character of an escape such as `\d`. */
  private classCharacter(): string {
    const char = this.pattern[this.position++];
    if (char !== '\\') return char;
    return this.escape(true);
  }

  private escape(inClass: boolean): string {
    const char = this.pattern[this.position++];
    if (char === undefined) throw new Unsupported();
    const members = CLASS_ESCAPES[char];
    if (members !== undefined) return inClass ? members : this.random.pick([...members]);
    if (LITERAL_ESCAPES[char] !== undefined) return LITERAL_ESCAPES[char];
    if (/[A-Za-z0-9]/.test(char)) throw new Unsupported(); // \b, \p{..}, \1, \u...: not sampled
    return char;
  }
}
