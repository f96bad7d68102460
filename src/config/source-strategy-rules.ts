// Rules of `source` about how it is retrieved: the strategies each kind (and API version) offers, and
// aggregations only with strategy aggs.
import type { z } from "zod";
import type { ApiVersion, SourceSection } from "../kinds/source-spec.js";
import type { DataKindComponent } from "../kinds/data-kind.js";

type Ctx = z.RefinementCtx;

function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: "custom", path, message });
}

export function checkStrategy(
  source: SourceSection,
  kind: DataKindComponent,
  api: ApiVersion,
  ctx: Ctx,
): void {
  const offered = kind.strategies(api);
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
}
