// The ledger's one busy step: a run reports what it spent and saw, and asks for its next block, in one
// statement (mdq_quota_take_block, ledger-sql-grant.ts), whose JSON answer is checked before use.
import { z } from "zod";
import type { BlockRequest, Grant } from "./ledger-types.js";
import { MIN_CAP } from "./ledger-block-size.js";
import type { LedgerSend } from "./ledger-types.js";

/** The grant as the function returns it: JSON null where the exporter has undefined. */
const GrantAnswer = z.strictObject({
  granted: z.number().int().nonnegative(),
  yieldTo: z.string().nullable(),
  exhausted: z.boolean(),
  probe: z.boolean(),
  slots: z.number().int().nonnegative().nullable(),
  remaining: z.number().int().nullable(),
  day: z.number().int().positive(),
});

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
  const { yieldTo, slots, remaining, ...grant } = parsed.data.grant;
  return {
    ...grant,
    yieldTo: yieldTo ?? undefined,
    slots: slots ?? undefined,
    remaining: remaining ?? undefined,
  };
}
