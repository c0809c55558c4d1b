/** `compute()`, computed on the first call only; what `compute` closes over is let go then. */
export function once<T>(compute: () => T): () => T {
  let pending: (() => T) | undefined = compute;
  let value: T;
  return () => {
    if (pending !== undefined) {
      value = pending();
      pending = undefined;
    }
    return value;
  };
}

/** A value computed already, in the shape of {@link once}. */
export function ready<T>(value: T): () => T {
  return () => value;
}
