// The ledger's one busy step: a run reports what it spent and saw, and asks for its next block, in one
// statement (mdq_quota_take_block, ledger-sql-grant.ts), whose JSON answer is checked before use.
import { z } from "zod";
import type { BlockRequest, LedgerSend } from "./ledger-types.js";
import { MIN_CAP } from "./ledger-block-size.js";

/** JSON null, as the function returns it, where the exporter has undefined. */
const orUndefined = <T extends z.ZodType>(schema: T) =>
  schema.nullable().transform((value) => value ?? undefined);

/** The grant as the function returns it. */
const GrantAnswer = z.strictObject({
  granted: z.number().int().nonnegative(),
  /** Requests this run may have in flight at once (toward `max_in_flight`); undefined: unbounded. */
  slots: orUndefined(z.number().int().nonnegative()),
  /** The pipeline of higher priority this run yields to, when it must. */
  yieldTo: orUndefined(z.string()),
  /** Nothing granted because the day's quota (less this run's reserve) is spent. */
  exhausted: z.boolean(),
  /**
   * The one request granted is the fleet's probe of a count that may be yesterday's: its answer, not
   * the ledger, says whether a new quota day began.
   */
  probe: z.boolean(),
  remaining: orUndefined(z.number().int()),
  day: z.number().int().positive(),
});

export type Grant = z.output<typeof GrantAnswer>;

const Row = z.object({ grant: GrantAnswer });

/**
 * Reports the run's spending and the count it saw, returns what leases that ran out left, and grants
 * the next block (possibly empty, with why).
 */
export async function takeBlock(send: LedgerSend, request: BlockRequest): Promise<Grant> {
  const result = await send(`SELECT mdq_quota_take_block($1::jsonb) AS grant`, [
    JSON.stringify({ ...request, minCap: MIN_CAP }),
  ]);
  const parsed = Row.safeParse(result.rows[0]);
  if (!parsed.success)
    throw new Error(`the quota ledger answered a block with an unexpected shape: ${parsed.error.message}`);
  return parsed.data.grant;
}
