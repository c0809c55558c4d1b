/**
 * Names declared twice: `duplicate-type` and `duplicate-interface` (one name space for enums,
 * structs and interfaces), `duplicate-error` (across every errors block), `duplicate-enum-value`,
 * `duplicate-method`, `duplicate-parameter`. Duplicate fields need the `extends` forest: see
 * inherited-fields.ts. The first declaration of a name is the one that counts; each later one is
 * reported, with the first as related location where the message names its line.
 */
import type { Name, SourceSpan } from '../ast.js';
import { errorAt, relatedLocation } from '../diagnostic.js';
import { article, type CheckContext } from './context.js';

export function checkDuplicates(context: CheckContext): void {
  checkDuplicateDeclarations(context);
  checkDuplicateErrors(context);
  checkDuplicateEnumValues(context);
  checkDuplicateMembersOfInterfaces(context);
}

/** `on line 3`, or `in common.idl on line 3` when `first` is in another file than `here`. */
function placeOf(first: SourceSpan, here: SourceSpan): string {
  return first.file === here.file ? `on line ${first.start.line}` : `in ${first.file} on line ${first.start.line}`;
}

/**
 * A duplicate across files is reported at both places (each file may be the one to change); within
 * one file, at the later one.
 */
function reportDuplicate(report: CheckContext['report'], code: string, what: string, detail: string, first: SourceSpan, here: SourceSpan) {
  report(
    errorAt(code, `${what} is already declared${detail} ${placeOf(first, here)}`, here, {
      related: [relatedLocation(`${what} is first declared here`, first)],
    }),
  );
  if (first.file !== here.file) {
    report(
      errorAt(code, `${what} is declared again ${placeOf(here, first)}`, first, {
        related: [relatedLocation(`${what} is declared again here`, here)],
      }),
    );
  }
}

function checkDuplicateDeclarations({ symbols, report }: CheckContext): void {
  for (const symbol of symbols.declarations) {
    if (symbol.kind !== 'enum' && symbol.kind !== 'struct' && symbol.kind !== 'union' && symbol.kind !== 'interface') continue;
    const first = symbols.types.get(symbol.name)!;
    if (first === symbol) continue;
    const code = symbol.kind === 'interface' ? 'duplicate-interface' : 'duplicate-type';
    reportDuplicate(report, code, `'${symbol.name}'`, ` as ${article(first.kind)}`, first.nameSpan, symbol.nameSpan);
  }
}

function checkDuplicateErrors({ errors, errorsByName, report }: CheckContext): void {
  for (const error of errors) {
    const first = errorsByName.get(error.name.text)!;
    if (first === error) continue;
    reportDuplicate(report, 'duplicate-error', `error '${error.name.text}'`, '', first.name.span, error.name.span);
  }
}

function checkDuplicateEnumValues({ enums, report }: CheckContext): void {
  for (const enumDecl of enums) {
    const seen = new Map<string, Name>();
    for (const { name } of enumDecl.values) {
      const first = seen.get(name.text);
      if (!first) {
        seen.set(name.text, name);
        continue;
      }
      report(
        errorAt(
          'duplicate-enum-value',
          `enum value '${name.text}' is already declared in enum '${enumDecl.name.text}' on line ${first.span.start.line}`,
          name.span,
          { related: [relatedLocation(`enum value '${name.text}' is first declared here`, first.span)] },
        ),
      );
    }
  }
}

function checkDuplicateMembersOfInterfaces({ interfaces, report }: CheckContext): void {
  for (const iface of interfaces) {
    const methods = new Map<string, Name>();
    for (const method of iface.methods) {
      const first = methods.get(method.name.text);
      if (first) {
        report(
          errorAt(
            'duplicate-method',
            `method '${method.name.text}' is already declared in interface '${iface.name.text}' on line ${first.span.start.line}`,
            method.name.span,
            { related: [relatedLocation(`method '${method.name.text}' is first declared here`, first.span)] },
          ),
        );
      } else {
        methods.set(method.name.text, method.name);
      }
      const parameters = new Set<string>();
      for (const parameter of method.parameters) {
        if (parameters.has(parameter.name.text)) {
          report(
            errorAt(
              'duplicate-parameter',
              `parameter '${parameter.name.text}' appears twice in method '${method.name.text}'`,
              parameter.name.span,
            ),
          );
        } else {
          parameters.add(parameter.name.text);
        }
      }
    }
  }
}
