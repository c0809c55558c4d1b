/**
 * Binary data (`format: binary`) cannot travel in JSON-RPC. Every place the conversion meets it is
 * one member (a struct field, an operation, a component schema) that has to go. With
 * `binary: 'drop'` each goes with a warning; by default every place is collected and the conversion
 * fails once at the end, listing them all, so one run tells the user everything `-drop-binary`
 * would drop.
 */
import { ConversionError, type WarningSink } from './warnings.js';

const CANNOT_CARRY = 'binary data (format: binary) cannot be carried by JSON-RPC';

/**
 * Thrown where a binary schema is met, and caught by whatever owns the member that has to go (the
 * struct field, the operation, the component schema). Internal to the converter.
 */
export class BinarySchemaError extends ConversionError {
  constructor(pointer: string) {
    super(pointer, CANNOT_CARRY);
    this.name = 'BinarySchemaError';
  }
}

/** One member that binary data makes the conversion drop (or, for a component schema, replace). */
export interface BinaryDataLocation {
  /** JSON pointer of the binary schema (same form as `ConversionWarning.pointer`). */
  pointer: string;
  /** What has to go: `field data of struct File`, `operation POST /upload`, `schema Blob`. */
  member: string;
  /** What `binary: 'drop'` does with it. */
  action: 'dropped' | 'replaced by string';
}

/** `field data of struct File`, or `schema Blob (replaced by string)`. */
export function describeBinaryLocation(location: BinaryDataLocation): string {
  return location.action === 'dropped' ? location.member : `${location.member} (${location.action})`;
}

/**
 * The conversion met binary data and `binary` was `'error'` (the default). `locations` lists every
 * place, in the order they were met; `pointer` is the first.
 */
export class BinaryDataError extends ConversionError {
  readonly locations: readonly BinaryDataLocation[];

  constructor(locations: readonly BinaryDataLocation[]) {
    super(locations[0].pointer, CANNOT_CARRY);
    this.name = 'BinaryDataError';
    this.locations = locations;
    const count = locations.length;
    this.message = [
      `${CANNOT_CARRY}, at ${count} place${count === 1 ? '' : 's'}:`,
      ...locations.map((l) => `  ${l.pointer}: ${describeBinaryLocation(l)}`),
      `binary: 'drop' drops ${count === 1 ? 'this member' : `these ${count} members`}`,
    ].join('\n');
  }
}

/** Collects the members binary data makes go: a warning each with `drop`, else one error at the end. */
export class BinaryDrops {
  private readonly locations: BinaryDataLocation[] = [];

  constructor(
    private readonly mode: 'error' | 'drop',
    private readonly sink: WarningSink,
  ) {}

  /** Records that the binary schema at `pointer` makes `member` go. */
  drop(pointer: string, member: string, action: BinaryDataLocation['action'] = 'dropped'): void {
    if (this.mode === 'drop') this.sink.warn(pointer, `${CANNOT_CARRY}; ${member} ${action}`);
    else this.locations.push({ pointer, member, action });
  }

  /** @throws BinaryDataError listing every place, when binary data was met and is not to be dropped. */
  throwIfAny(): void {
    if (this.locations.length > 0) throw new BinaryDataError(this.locations);
  }
}
