/**
 * The `info` object of a document describing IDL models, the same in OpenAPI and OpenRPC: the title
 * from the namespaces, a description listing what they declare, and the namespace and its doc
 * comment in extensions (docs/openapi.md, "Document").
 */
import type { IdlModel } from '../idl/model.js';
import { EXTENSION } from './error-binding.js';

type Schema = Record<string, unknown>;

/** `info` for `models` (those the document describes), with `version` as given. */
export function documentInfo(models: readonly IdlModel[], infoVersion: string): Schema {
  const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const info: Schema = {
    title: models.map((m) => capitalize(m.namespace)).join(', ') || 'IDL',
    description: models
      .map((m) => {
        const lines = [`Namespace: ${m.namespace}`];
        const imported = [...new Set(m.files.flatMap((file) => (file.namespace === undefined ? [] : [file.namespace])))];
        if (imported.length > 0) lines.push(`Imported namespaces: ${imported.join(', ')}`);
        lines.push(`Interfaces: ${m.interfaces.length}`, `Structs: ${m.structs.length}`, `Enums: ${m.enums.length}`);
        return lines.join('\n');
      })
      .join('\n\n'),
    version: infoVersion,
  };
  if (models.length === 1) {
    info[EXTENSION.namespace] = models[0].namespace;
    if (models[0].namespaceComment !== undefined) info[EXTENSION.comment] = models[0].namespaceComment;
  }
  return info;
}
