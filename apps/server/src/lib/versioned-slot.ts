// A value read from the database and kept in memory, read again when it falls behind the version a caller
// needs. A load in progress is shared by every caller waiting for it. Used by the pricing module's pivot
// models and the promotions module's per-seller copies.

export interface VersionedSlot<T> {
  value: T | null;
  loading: Promise<T> | null;
}

export const emptySlot = <T>(): VersionedSlot<T> => ({ value: null, loading: null });

/**
 * The slot's value once `fresh` holds for it. Until then it is loaded by `load` (given the value held so far,
 * for an incremental refresh); a failed load is thrown to its waiters and the next caller tries again.
 */
export async function freshValue<T>(
  slot: VersionedSlot<T>,
  fresh: (value: T) => boolean,
  load: (previous: T | null) => Promise<T>,
): Promise<T> {
  while (!slot.value || !fresh(slot.value)) {
    if (!slot.loading)
      slot.loading = load(slot.value).then(
        (value) => {
          slot.value = value;
          slot.loading = null;
          return value;
        },
        (err) => {
          slot.loading = null;
          throw err;
        },
      );
    await slot.loading;
  }
  return slot.value;
}
