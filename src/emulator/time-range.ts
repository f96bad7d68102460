// The v1 `time_range` window: from its date-math start (`now-<n><unit>/<unit>`, which the wire schema
// checked) to now.
import { resolveDateMath } from "../core/date-math.js";

export function timeRangeWindow(expression: string, now: number): { startMs: number; endMs: number } {
  const start = resolveDateMath(expression, new Date(now));
  return { startMs: start.ok ? start.date.getTime() : now, endMs: now };
}
