import { startTransition, useEffect, useState } from 'react';

/**
 * How many of `all` blocks (a seller's table, a classification's table) to draw now: the first `first`
 * with the answer, all of them right after in a transition (React may paint in between), so a screen's
 * first answer shows without waiting for every cell (issue 31 item 11).
 */
export function useDrawnInSteps(all: number, first: number): number {
  const [drawn, setDrawn] = useState(first);
  useEffect(() => {
    if (all <= first) return;
    const t = setTimeout(() => startTransition(() => setDrawn(all)), 0);
    return () => clearTimeout(t);
  }, [all, first]);
  return drawn;
}
