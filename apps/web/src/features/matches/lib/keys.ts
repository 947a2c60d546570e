// The review keyboard (documented on screen: texts.ts MATCH_TEXT.keys). Pure, so it is unit-tested.

export type ReviewCommand = 'accept' | 'reject' | 'skip' | 'next' | 'previous' | 'undo';

/** The command of a key press, or null (typing in a field, a modifier held, another key). */
export function commandOfKey(e: {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target?: EventTarget | null;
}): ReviewCommand | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target as {
    tagName?: string;
    isContentEditable?: boolean;
    getAttribute?: (name: string) => string | null;
  } | null;
  if (
    t &&
    (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)
  )
    return null;
  // an open select's menu takes its own letters and arrows (a closed select keeps the review keys, so that
  // they work right after a filter is chosen)
  const role = t?.getAttribute?.('role');
  if (role === 'listbox' || role === 'option') return null;
  switch (e.key) {
    case 'a':
    case 'A':
      return 'accept';
    case 'r':
    case 'R':
      return 'reject';
    case 's':
    case 'S':
      return 'skip';
    case 'ArrowRight':
    case 'n':
    case 'N':
      return 'next';
    case 'ArrowLeft':
    case 'p':
    case 'P':
      return 'previous';
    case 'u':
    case 'U':
      return 'undo';
  }
  return null;
}
