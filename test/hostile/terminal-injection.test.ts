/**
 * An IDL file crafted to drive the terminal its errors are printed on: an OSC sequence that sets the
 * window title (ESC ] 0 ; ... BEL), a CSI sequence that clears the screen (ESC [ 2 J) and a
 * right-to-left override (U+202E) in a comment, an import's path (which the error message quotes)
 * and where a name should be, and in the file's name. Every message and code frame shows them as
 * visible escapes (`\u001b`), for `-validate` and for the syntax errors of `-format`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, hasStackTrace, runHostileCli, tempFolder } from './harness.js';

const ESC = '\u001b';
const BEL = '\u0007';
const RLO = '\u202e';
const TITLE = `${ESC}]0;pwned${BEL}`;
const CLEAR = `${ESC}[2J`;
/** Every raw character the output must not hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const FILE_NAME = `evil${CLEAR}.idl`;
const CRAFTED = [
  'namespace shop',
  `// ${TITLE} title ${CLEAR} clear ${RLO} reversed`,
  `import "${TITLE}${CLEAR}${RLO}evil.idl"`,
  `struct ${CLEAR}Cart {`,
  '}',
  '',
].join('\n');

let folder: ReturnType<typeof tempFolder>;
beforeAll(() => {
  ensureBuilt();
  folder = tempFolder();
  writeFileSync(join(folder.dir, FILE_NAME), CRAFTED);
});
afterAll(() => folder.remove());

describe('control and bidirectional characters in an IDL file are printed escaped', () => {
  test('-validate: headers, messages and code frames', { timeout: 60_000 }, async () => {
    const run = await runHostileCli(['-validate', FILE_NAME], folder.dir);
    expect(run.hung).toBe(false);
    expect(hasStackTrace(run.stderr)).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    const lines = run.stderr.split('\n');
    expect(lines).toContain('evil\\u001b[2J.idl:3:8: error: cannot import "\\u001b]0;pwned\\u0007\\u001b[2J\\u202eevil.idl": no such file');
    expect(lines).toContain('  2 | // \\u001b]0;pwned\\u0007 title \\u001b[2J clear \\u202e reversed');
    // The caret stands under the escape as shown, as wide as it.
    const frame = lines.indexOf('> 4 | struct \\u001b[2JCart {');
    expect(frame).toBeGreaterThan(-1);
    expect(lines[frame + 1]).toBe('    |        ^^^^^^');
    expect(run.stderr).toContain('2 errors in evil\\u001b[2J.idl');
  });

  test('-format: the syntax error is escaped the same way, and nothing is printed on stdout', { timeout: 60_000 }, async () => {
    const run = await runHostileCli(['-format', FILE_NAME], folder.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain('evil\\u001b[2J.idl:4:8: error: expected a struct name');
    expect(run.stderr).toContain('> 4 | struct \\u001b[2JCart {');
  });

  test('-format of a valid file keeps its text as it is: output is data, not a message', { timeout: 60_000 }, async () => {
    const valid = `namespace shop\n\n// ${TITLE} ${RLO}\nstruct Cart {\n    id string\n}\n`;
    writeFileSync(join(folder.dir, 'valid.idl'), valid);
    const run = await runHostileCli(['-format', 'valid.idl'], folder.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`\n// ${TITLE} ${RLO}\nstruct Cart {\n`);
  });

  test("-validate's status line on stdout escapes the file's name", { timeout: 60_000 }, async () => {
    writeFileSync(join(folder.dir, `ok${CLEAR}.idl`), 'namespace shop\n');
    const run = await runHostileCli(['-validate', `ok${CLEAR}.idl`], folder.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('ok\\u001b[2J.idl: ok (0 interfaces, 0 structs, 0 enums, 0 errors)\n');
  });
});
