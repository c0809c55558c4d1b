/**
 * JavaScript's reserved words, the one list of them: the code generator never declares a name that
 * is one (src/codegen/names.ts), and the OpenAPI converter warns about a parameter named like one,
 * since OpenAPI client generators rename it (src/openapi/reserved-words.ts).
 */

/** JavaScript's reserved words, with those of strict mode (which modules are in). */
export const JAVASCRIPT_RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    'await break case catch class const continue debugger default delete do else enum export extends false finally ' +
    'for function if implements import in instanceof interface let new null package private protected public return ' +
    'static super switch this throw true try typeof var void while with yield'
  ).split(' '),
);

/** Not reserved, but strict mode forbids declaring them: `arguments` and `eval`. */
export const STRICT_MODE_RESTRICTED_NAMES: ReadonlySet<string> = new Set(['arguments', 'eval']);
