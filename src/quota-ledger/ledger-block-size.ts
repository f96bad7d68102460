// How many requests a run reserves at a time. Each block costs one ledger statement, so blocks are
// sized from the run's plan: the requests its claim still needs, in one block where the day allows,
// so that a run's ledger statements stay a small fixed number (well under 2% of its requests on runs
// of a few hundred requests and more). Fairness bounds them from the other side: no block is more
// than a tenth of what the day has left, or of the room higher-priority claims leave (smaller blocks
// near the limit), and what a run holds unspent goes back when it ends or yields.

/** A block is never smaller than this, unless the day's count or the room says so. */
export const MIN_BLOCK = 50;

/** Blocks are at most this part of the day's remaining count (or of the room a priority has). */
export const DAY_SHARE = 10;

/** The smallest cap near the limit: a few requests still go out in blocks, not one by one. */
const MIN_CAP = 5;

export interface BlockNeed {
  /** The smallest block worth a statement: `max(MIN_BLOCK, 4 × concurrency)`. */
  minimum: number;
  /** Requests the run claimed (its plan, plus what planning cost); undefined before the plan. */
  claimed: number | undefined;
  /** Requests the ledger granted this run so far. */
  reserved: number;
}

/** The smallest block worth a statement for a run sending `concurrency` requests at once. */
export function minimumBlock(concurrency: number): number {
  return Math.max(MIN_BLOCK, 4 * concurrency);
}

/**
 * The block a run asks for: the rest of its claim (at least the minimum), or the minimum before its
 * plan is known or once its claim is covered (the plan fell short).
 * @example blockWanted({ minimum: 50, claimed: 600, reserved: 51 }) // 549
 */
export function blockWanted(need: BlockNeed): number {
  if (need.claimed === undefined) return need.minimum;
  return Math.max(need.minimum, need.claimed - need.reserved);
}

/**
 * Whether to ask for the next block before this one is spent (a quarter of it left), so requests
 * rarely wait: only while the claim is not covered yet. Once it is, the next statement is the run's
 * end, unless the plan fell short and the block runs out.
 */
export function askAhead(need: BlockNeed, available: number, lastBlock: number): boolean {
  if (need.claimed !== undefined && need.reserved >= need.claimed) return false;
  return available <= Math.floor(lastBlock / 4);
}

/**
 * The most one grant may hand out from `left` (the day's remaining count, or the room below
 * higher-priority claims): a `share`th of it (a tenth), at least a few requests.
 */
export function blockCap(left: number, share = DAY_SHARE): number {
  return Math.max(MIN_CAP, Math.ceil(left / share));
}
