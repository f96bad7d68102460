// Rules of `source` about how it is retrieved: the strategies each kind (and API version) offers,
// aggregations only with strategy aggs, what billing takes, and v1's single time_range.
import type { z } from "zod";
import { V1_TIME_RANGE } from "./date-math.js";
import type { ApiVersion } from "../kinds/source-spec.js";
import { KINDS } from "../pipeline/registry.js";
import type { SourceShape } from "./source-rules.js";

type Ctx = z.RefinementCtx;

function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

export function checkStrategy(source: SourceShape, api: ApiVersion, ctx: Ctx): void {
  const offered = KINDS[source.kind].strategies(api);
  if (!offered.includes(source.strategy)) {
    issue(
      ctx,
      ["strategy"],
      `"${source.strategy}" is not offered for ${api} ${source.kind}; allowed: ${offered.join(", ")}`,
    );
  }
  if (source.strategy === "aggs" && source.aggs === undefined) {
    issue(ctx, ["aggs"], "is required with strategy aggs: at least one aggregation");
  } else if (source.aggs !== undefined && source.strategy !== "aggs") {
    issue(ctx, ["aggs"], "applies only with strategy: aggs");
  }
  if (source.aggs !== undefined && Object.keys(source.aggs).length === 0) {
    issue(ctx, ["aggs"], "must contain at least one aggregation");
  }
  if (source.kind === "billing") {
    for (const key of ["filters", "fields", "page_size"] as const) {
      if (source[key] !== undefined)
        issue(ctx, [key], `billing takes no ${key}: it is one summary per domain`);
    }
  }
}

/** v1 operations take `time_range` (`now-<n><unit>/<unit>`), up to now, unsliced. */
export function checkV1Window(source: SourceShape, ctx: Ctx): void {
  const what = source.kind === "billing" ? "billing (v1)" : "v1 logs";
  const { expression } = source.window;
  if (!V1_TIME_RANGE.test(expression.start)) {
    issue(
      ctx,
      ["window", "start"],
      `${what} takes a time_range such as now-7d/d; "${expression.start}" is not of the form now-<n><unit>/<unit>`,
    );
  }
  if (expression.end !== "now") {
    issue(ctx, ["window", "end"], `${what} always ends now; remove end (found "${expression.end}")`);
  }
  if (expression.slice !== "auto") {
    issue(ctx, ["window", "slice"], `${what} cannot be sliced: its time_range is one request`);
  }
}
