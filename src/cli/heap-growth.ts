// How far V8 lets the heap grow between full collections. An export keeps little alive (about 40 MB:
// the open row groups, the slices' state), but makes garbage fast, and most of it lives long enough to
// reach the old generation (the values a row group buffers). When a full collection is cheap, V8 lets
// the old generation grow to up to four times what survived the last one before it collects again, so a
// Parquet export's heap swings between 35 and 110 MB and its peak RSS sits near 260 MB. Growing by at
// most 2.5 times keeps the same export near 215 MB at the same CPU (docs/performance.md, "The heap's
// growth"). V8 reads this flag at every full collection, so setting it after start takes effect.
import v8 from "node:v8";

/** The old generation grows to at most 1 + this/100 times what the last full collection kept. */
export const HEAP_GROWING_PERCENT = 150;

const FLAG = "--heap-growing-percent";

/**
 * The flag this process should set, or undefined when the user chose their own on node's command line
 * (`node --heap-growing-percent=0 …` gives V8 back its own choice).
 */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  const chosen = execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`));
  return chosen ? undefined : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Applies the growth bound to this process; called once, by the command line's entry point. */
export function boundHeapGrowth(execArgv: readonly string[]): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag !== undefined) v8.setFlagsFromString(flag);
}
