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
export const MIN_CAP = 5;

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
 * The block a run asks for: the rest of its claim (no more, so it never holds more than it claims),
 * or the minimum before its plan is known or once its claim is covered (the plan fell short).
 * @example blockWanted({ minimum: 50, claimed: 600, reserved: 51 }) // 549
 */
export function blockWanted(need: BlockNeed): number {
  if (need.claimed === undefined || need.reserved >= need.claimed) return need.minimum;
  return need.claimed - need.reserved;
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

/** A block to ask for, and the claim (every shard's) it carries when the claim changes with it. */
export interface BlockAsk {
  want: number;
  claim?: { claimKey: string; requests: number };
}

/**
 * A run's claim as its gate keeps it: this process's part (blocks are sized from it) and every shard's
 * (what the ledger protects), grown when the run reserves past it.
 */
export class RunClaim {
  /** This process's part, planning included; undefined until the plan is known. */
  own: number | undefined;
  private fleet = 0;

  constructor(
    private readonly minimum: number,
    private readonly claimKey: string,
  ) {}

  need(reserved: number): BlockNeed {
    return { minimum: this.minimum, claimed: this.own, reserved };
  }

  /** The plan's claim: the block to ask for with it (none when the block in hand covers the plan). */
  planned(requests: number, own: number, reserved: number): BlockAsk {
    this.own = own;
    this.fleet = requests;
    const want = reserved >= own ? 0 : blockWanted(this.need(reserved));
    return { want, claim: { claimKey: this.claimKey, requests } };
  }

  /**
   * The next block. Once the claim is covered and more is needed (the plan fell short, or guessed an
   * unprobed slice low), the claim grows by the block in the same statement.
   */
  next(reserved: number): BlockAsk {
    const need = this.need(reserved);
    const want = blockWanted(need);
    if (need.claimed === undefined || reserved < need.claimed) return { want };
    this.own = need.claimed + want;
    this.fleet += want;
    return { want, claim: { claimKey: this.claimKey, requests: this.fleet } };
  }
}
