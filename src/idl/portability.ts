/**
 * What `idlrpc -validate -portable` warns about: each use of a construct that the other
 * implementations of the IDL family do not read (docs/cli.md). Today: the built-in types
 * `timestamp`, `date`, `bytes` and `json` (docs/idl.md, "Built-in types"), which they take for
 * unknown type names; an attribute list holding more than `optional` on a field or a return
 * (docs/idl.md, "Attributes"), where they read only `[optional]`; and any attribute list on a
 * parameter, optional parameters included (docs/idl.md, "Optional parameters"), where they read none; unions (docs/idl.md, "Unions"), whose declarations they cannot parse; and
 * stream methods (docs/idl.md, "Streams"), whose `stream` they cannot parse.
 */
import type { Attribute, Parameter, SourceSpan, TypeRef, UnionDecl } from './ast.js';
import { CONTEXTUAL_BUILT_IN_TYPES } from './built-in-types.js';
import { type Diagnostic, errorAt } from './diagnostic.js';
import type { IdlModel } from './model.js';

/** One warning per use of a construct other implementations do not read, in source order per file. */
export function portabilityWarnings(model: IdlModel): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  const visit = (type: TypeRef): void => {
    if (type.kind === 'array') visit(type.element);
    else if (type.kind === 'map') visit(type.value);
    else if (type.kind === 'builtIn' && CONTEXTUAL_BUILT_IN_TYPES.has(type.name)) warnings.push(warningAt(type));
  };
  for (const declaration of model.file.declarations) {
    if (declaration.kind === 'struct') {
      for (const field of declaration.fields) {
        visit(field.type);
        if (field.attributes) warnings.push(listWarning(field.attributes, `field '${field.name.text}'`));
      }
    } else if (declaration.kind === 'union') warnings.push(unionWarningAt(declaration));
    else if (declaration.kind === 'interface') {
      for (const method of declaration.methods) {
        for (const parameter of method.parameters) {
          visit(parameter.type);
          if (parameter.optional || parameter.attributes) warnings.push(parameterWarning(parameter));
        }
        if (method.stream) warnings.push(streamWarningAt(method.name.text, method.stream));
        visit(method.returnType);
        if (method.returnAttributes) warnings.push(listWarning(method.returnAttributes, `the return of '${method.name.text}'`));
      }
    }
  }
  // The list of a line comes after its type: in order of position, as the other diagnostics are.
  return warnings.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** At the items of a field's or a return's list that holds more than `optional`. */
function listWarning(attributes: readonly Attribute[], owner: string): Diagnostic {
  const span = { ...attributes[0].span, end: attributes[attributes.length - 1].span.end };
  return notPortable(
    `the attribute list of ${owner} holds more than optional: the IDL family's other implementations read only [optional] there`,
    span,
  );
}

/** At a parameter with a list (`[optional]` included): the family's other implementations read none there. */
function parameterWarning(parameter: Parameter): Diagnostic {
  const what = parameter.optional ? 'optional parameter' : 'parameter';
  return notPortable(
    `${what} '${parameter.name.text}' has an attribute list: the IDL family's other implementations read no attribute list on a parameter (every parameter is required there)`,
    parameter.span,
  );
}

function warningAt(type: TypeRef & { kind: 'builtIn' }): Diagnostic {
  const { span, name } = type;
  return notPortable(
    `'${name}' is a built-in type of this implementation only: the IDL family's other implementations read it as an unknown type name`,
    span,
    name.length,
  );
}

/** At the union's name: its declaration is what other implementations cannot parse. */
function unionWarningAt(union: UnionDecl): Diagnostic {
  const { span, text } = union.name;
  return notPortable(
    `union '${text}' is a construct of this implementation only: the IDL family's other implementations cannot parse a union declaration`,
    span,
    text.length,
  );
}

/** At the word `stream`: the family's other implementations cannot parse it there. */
function streamWarningAt(methodName: string, span: SourceSpan): Diagnostic {
  return notPortable(
    `stream method '${methodName}' is a construct of this implementation only: the IDL family's other implementations cannot parse 'stream' before a return type`,
    span,
    'stream'.length,
  );
}

/** A `not-portable` warning at `span` (its length on its line unless given). */
function notPortable(message: string, span: SourceSpan, length?: number): Diagnostic {
  return { ...errorAt('not-portable', message, span, length === undefined ? {} : { length }), severity: 'warning' };
}
