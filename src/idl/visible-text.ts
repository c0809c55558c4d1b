/**
 * Text from an IDL file, a path or an OpenAPI document, made safe to show in a terminal, an editor
 * or an error overlay. Such text may hold control characters (ESC starts sequences that set a
 * terminal's title, clear its screen or move its cursor; BEL, CR, ...) and bidirectional controls
 * (which make text read in another order than it is written, hiding what a line really says).
 * Each of them is shown as a visible escape instead, `\u001b` for ESC: the text stays readable and
 * does nothing to the screen. Newline and tab are layout and are kept.
 */

/**
 * C0 controls but tab and newline, DEL and the C1 controls, the Arabic letter mark, the
 * left-to-right and right-to-left marks, and the bidirectional embeddings, overrides and isolates.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVISIBLE_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character but newline and tab, and every bidirectional control, written
 * as a `\uXXXX` escape. Idempotent: the escapes themselves are plain characters.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(INVISIBLE_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
