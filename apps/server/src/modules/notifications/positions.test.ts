import { describe, expect, it } from 'vitest';
import { checkedPositions } from './dispatch.js';

// A price alert is told only when it holds on the prices of its instant (issue 31 item 5): the listing's
// price after and before against the same competitor prices, all in CLP.

const p = (mine: number | null, others: number[], wasOut = false, rate = 1) => ({
  mine,
  rate,
  wasOut,
  others,
});

describe('checkedPositions', () => {
  it('keeps a real gain with the positions of the instant', () => {
    expect(
      checkedPositions('cheapest_gained', { before: 1100, rankBefore: 3 }, p(900, [1000, 1200])),
    ).toEqual({
      rankBefore: 2,
      rankAfter: 1,
      wasOut: false,
    });
  });

  it('drops a gain that does not hold (ranked against another moment): nobody is told', () => {
    expect(checkedPositions('cheapest_gained', { before: 1300, rankAfter: 1 }, p(1100, [1000]))).toBeNull();
    // cheapest before as well: nothing was gained
    expect(checkedPositions('cheapest_gained', { before: 800 }, p(900, [1000]))).toBeNull();
  });

  it('a rise to the cheapest only back from out of stock, and then no position before', () => {
    expect(checkedPositions('cheapest_gained', { before: 3099 }, p(4199, [5000], true))).toEqual({
      rankBefore: null,
      rankAfter: 1,
      wasOut: true,
    });
    expect(checkedPositions('cheapest_gained', { before: 3099 }, p(4199, [4000], false))).toBeNull();
  });

  it('converts the old price with the listing currency rate of that day', () => {
    // 20 PEN at 250 CLP = 5000 CLP: second behind 4500, now 4000 CLP: first
    expect(checkedPositions('cheapest_gained', { before: 20 }, p(4000, [4500, 6000], false, 250))).toEqual({
      rankBefore: 2,
      rankAfter: 1,
      wasOut: false,
    });
  });

  it('a loss needs the first place before and not after; ties share the place', () => {
    expect(checkedPositions('cheapest_lost', { before: 900 }, p(1100, [1000]))).toEqual({
      rankBefore: 1,
      rankAfter: 2,
      wasOut: false,
    });
    expect(checkedPositions('cheapest_lost', { before: 900 }, p(1000, [1000]))).toBeNull();
  });

  it('without history at the instant the stored facts stand; a repricing takes the position of the instant', () => {
    expect(checkedPositions('cheapest_gained', { rankBefore: 2, rankAfter: 1 }, undefined)).toEqual({
      rankBefore: 2,
      rankAfter: 1,
      wasOut: false,
    });
    expect(checkedPositions('repricing', { before: 10, rankAfter: 4 }, p(900, [800, 1000]))).toMatchObject({
      rankAfter: 2,
    });
  });
});
