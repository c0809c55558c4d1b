/** A baseline that cannot be read or compiled: the CLI exits 2 with its message, the plugin warns once. */
export class BaselineError extends Error {
  override name = 'BaselineError';
}
