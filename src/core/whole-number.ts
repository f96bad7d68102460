// The whole numbers of a pipeline's settings (sizes, limits, counts, milliseconds): one place for
// `z.number().int().min(n)`, which every config schema spelled out again.
import { z } from "zod";

/** A whole number of at least `min`; zod's own messages name a fraction or a number below it. */
export function wholeNumber(min: number): z.ZodNumber {
  return z.number().int().min(min);
}
