/**
 * Intentional breaks: changes a team has decided to make, named by `// idlrpc:accept <rule-id>
 * <qualified name>` comments in the new IDL (any file of the program; the formatter keeps them like
 * every comment) or by `-accept <rule-id>[:<name>]` on the command line. An accepted change stays
 * in the report, marked as accepted, and never fails the check.
 */
import { sourceComments } from '../idl/format.js';
import type { ChangeLocation } from './contract.js';
import type { ContractChange } from './diff.js';
import { ruleById } from './rules.js';

/** One acceptance: a rule, and the qualified name it applies to (every name when absent). */
export interface Acceptance {
  rule: string;
  subject?: string;
  /** Where it is written: the directive's place, or `-accept` for the flag. */
  origin: ChangeLocation | 'flag';
}

/** A directive that cannot work, reported as a warning with its place. */
export interface AcceptProblem {
  message: string;
  location: ChangeLocation;
}

const DIRECTIVE = 'idlrpc:accept';

/**
 * The `// idlrpc:accept` directives of one file's text, and the problems of malformed ones (an
 * unknown rule, a missing name). Only comments count (`sourceComments`, as the formatter reads them):
 * a `//` inside an error message's quotes is text.
 */
export function acceptDirectives(source: string, fileName: string): { acceptances: Acceptance[]; problems: AcceptProblem[] } {
  const acceptances: Acceptance[] = [];
  const problems: AcceptProblem[] = [];
  const lines = source.split('\n');
  for (const comment of sourceComments(source)) {
    const text = comment.text.trim();
    if (!text.startsWith(DIRECTIVE)) continue;
    const column = lines[comment.line - 1].indexOf(DIRECTIVE, comment.column - 1) + 1;
    const location: ChangeLocation = { file: fileName, line: comment.line, column };
    const [rule, subject, ...rest] = text.slice(DIRECTIVE.length).trim().split(/\s+/).filter(Boolean);
    if (rule === undefined || subject === undefined || rest.length > 0) {
      problems.push({ message: `write the directive as '// ${DIRECTIVE} <rule-id> <qualified name>'`, location });
    } else if (!ruleById(rule)) {
      problems.push({ message: `unknown rule '${rule}' in ${DIRECTIVE} (the rules are listed in docs/breaking.md)`, location });
    } else {
      acceptances.push({ rule, subject, origin: location });
    }
  }
  return { acceptances, problems };
}

/**
 * `-accept rule` or `-accept rule:name`.
 *
 * @throws Error naming the flag's value when the rule is unknown.
 */
export function acceptFlag(value: string): Acceptance {
  const colon = value.indexOf(':');
  const rule = colon === -1 ? value : value.slice(0, colon);
  const subject = colon === -1 ? undefined : value.slice(colon + 1);
  if (!ruleById(rule)) throw new Error(`-accept ${value}: unknown rule '${rule}' (the rules are listed in docs/breaking.md)`);
  if (subject === '') throw new Error(`-accept ${value}: the name after ':' is empty`);
  return subject === undefined ? { rule, origin: 'flag' } : { rule, subject, origin: 'flag' };
}

/** The acceptance that covers a change, if any. */
export function acceptanceOf(change: ContractChange, acceptances: readonly Acceptance[]): Acceptance | undefined {
  return acceptances.find((a) => a.rule === change.rule && (a.subject === undefined || a.subject === change.subject));
}
