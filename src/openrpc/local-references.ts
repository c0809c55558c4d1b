/**
 * The `$ref`s of an OpenRPC document: JSON pointers into the document itself, nothing else. OpenRPC
 * tools resolve other documents over the network or from disk; a converter run on a document
 * someone sent must not, so every other reference is refused, naming it.
 */
import { type Location, SourceDocuments, displayPointer } from '../openapi/source-documents.js';
import { ConversionError } from '../openapi/warnings.js';

/** The document's own references only; see the file comment. */
export class LocalReferences extends SourceDocuments {
  constructor(content: unknown) {
    super(content, undefined, undefined);
  }

  /**
   * Follows a `$ref` that starts with `#`.
   *
   * @throws ConversionError for any other reference (another file, a URL), or one that points to nothing.
   */
  override resolve(ref: string, from: Location): { location: Location; value: unknown } {
    if (!ref.startsWith('#')) {
      throw new ConversionError(
        displayPointer(from),
        `external $ref "${ref}" is not supported: an OpenRPC document is converted with references into itself only ("#/components/...")`,
      );
    }
    return super.resolve(ref, from);
  }
}
