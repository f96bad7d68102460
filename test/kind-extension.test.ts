// Adding a data kind is a component and the service's data, and no pager or poller: this test declares
// a kind of its own over the tickets index (its requests, mappings and paging written here, from the
// factories and the point-in-time strategy as they are), adds it with `withComponents` under a name no
// built-in kind has (`source.kind: service_tickets`), and runs a pipeline through it against the
// emulator over HTTP. The pager is the one paging loop, and the batch status poll the one poll loop;
// neither knows a kind, so a kind that pages or exports through them needs nothing of api/paging/
// changed (the second test declares a batch-exporting kind over the workloads index the same way).
import { join } from "node:path";
import { describe, expect } from "vitest";
import type { PagingStrategy } from "../src/api/paging/pager.js";
import { v2BatchExport } from "../src/api/paging/batch-exports.js";
import type { BatchExport } from "../src/api/paging/batch-status.js";
import { v2Scroll } from "../src/api/paging/scroll.js";
import { pointInTime } from "../src/api/paging/point-in-time.js";
import type { PointInTimePath } from "../src/api/paging/point-in-time.js";
import { ATR_ONLY, DOMAIN_APP_TYPES } from "../src/api/wire/common.js";
import { defaultComponents, withComponents } from "../src/components/environment.js";
import { byName } from "../src/kinds/hit-columns.js";
import { v3Kind } from "../src/kinds/v3-kind.js";
import { v2ScrollKind } from "../src/kinds/v2-scroll-kind.js";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { hitRecord } from "./support/expected-rows.js";
import { collect, readNdjson } from "./support/read-output.js";
import { REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T04:00:00.000Z";

const it = useEmulator();

/** What the kind's own code was asked: slices paged, and cursors the loop followed through it. */
const asked = { slices: 0, followed: 0, batches: 0, polls: 0 };

/** A strategy of the test's own: the point in time, telling each next request it is asked for. */
function countedPointInTime(body: Parameters<typeof pointInTime>[1]): PagingStrategy<PointInTimePath> {
  const strategy = pointInTime("/v3/tickets/query", body);
  return {
    ...strategy,
    next(response, size) {
      asked.followed += 1;
      return strategy.next(response, size);
    },
  };
}

const testKind = v3Kind({
  type: "tickets",
  summary: "Tickets, declared by a test.",
  applications: ATR_ONLY,
  paging: "pit",
  strategy(body) {
    asked.slices += 1;
    return countedPointInTime(body);
  },
  aggs: async (client, body, signal) =>
    (await client.call("/v3/tickets/aggs", body, { signal })).data.aggregations,
  mappings: async (client, source, signal) =>
    byName(
      (await client.call("/v3/tickets/mappings", { includes_eu: source.includes_eu }, { signal })).data
        .fields,
    ),
});

describe("a data kind added through the environment alone", () => {
  it("runs end to end through the one paging loop: every record of its index once, as the service holds it", async ({
    service,
    workspace,
  }) => {
    const out = join(workspace.dir, "tickets");
    const file = await workspace.write(
      "tickets.yaml",
      `name: kind-extension
${REMOTE_SERVICE_YAML}
source:
  kind: service_tickets
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: pit
  page_size: 20
sinks:
  - format: ndjson
    to: ${out}
`,
    );
    const components = withComponents(defaultComponents(), { kinds: { service_tickets: testKind } });
    const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env, components });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const hits = await collect(
      service.emulator.expectedHits("tickets", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: START,
        end_time: END,
        size: 20,
      }),
    );
    // Pages of 20 over this many records: the loop followed the kind's cursors, slice by slice.
    expect(hits.length).toBeGreaterThan(60);
    expect(asked.slices).toBe(2);
    expect(asked.followed).toBeGreaterThanOrEqual(Math.ceil(hits.length / 20));
    const { files } = await checkCompleteExport(out, hits.length);
    const rows = byId(await readNdjson(out, files));
    expect(rows.size).toBe(hits.length);
    for (const hit of hits) expect(rows.get(hit._id)).toEqual(hitRecord(hit));
  });
});

/** A batch export of the test's own: the v2 export, telling each request and poll it is asked for. */
function countedBatch(body: Parameters<typeof v2BatchExport<"/v2/workloads/batch">>[1]): BatchExport {
  const batch = v2BatchExport("/v2/workloads/batch", body, "workload_count");
  return {
    ...batch,
    create(client, signal) {
      asked.batches += 1;
      return batch.create(client, signal);
    },
    status(client, token, signal) {
      asked.polls += 1;
      return batch.status(client, token, signal);
    },
  };
}

const batchKind = v2ScrollKind({
  type: "workloads",
  summary: "Workloads, declared by a test.",
  allowed: { applications: ATR_ONLY, appTypes: DOMAIN_APP_TYPES },
  scroll: (body) => v2Scroll("/v2/workloads/scroll", body, (response) => response.meta.workloads_available),
  batch: (body) => countedBatch(body),
  aggs: async (client, body, signal) =>
    (await client.call("/v2/workloads/aggs", body, { signal })).data.aggregations,
  mappings: async (client, source, signal) =>
    byName(
      (await client.call("/v3/workloads/mappings", { includes_eu: source.includes_eu }, { signal })).data
        .fields,
    ),
});

describe("a batch-exporting data kind added through the environment alone", () => {
  it("exports end to end through the one poll loop with the kind's own batch export: every record once", async ({
    service,
    workspace,
  }) => {
    const out = join(workspace.dir, "workloads");
    const file = await workspace.write(
      "workloads.yaml",
      `name: kind-extension-batch
${REMOTE_SERVICE_YAML}
source:
  kind: service_workloads
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: batch
sinks:
  - format: ndjson
    to: ${out}
`,
    );
    const components = withComponents(defaultComponents(), { kinds: { service_workloads: batchKind } });
    const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env, components });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);

    const hits = [];
    for (const appType of ["ec2", "kubernetes"]) {
      hits.push(
        ...(await collect(
          service.emulator.expectedHits("/v2/workloads/batch", {
            application: "atr",
            app_type: appType,
            domain: ["*"],
            start_time: START,
            end_time: END,
          }),
        )),
      );
    }
    expect(hits.length).toBeGreaterThan(10);
    // Two slices of two app types: one export each, every one polled through the kind's own export.
    expect(asked.batches).toBe(4);
    expect(asked.polls).toBeGreaterThanOrEqual(4);
    expect(service.emulator.requestCount("/v2/workloads/batch")).toBe(4);
    const { files } = await checkCompleteExport(out, hits.length);
    const rows = byId(await readNdjson(out, files));
    expect(rows.size).toBe(hits.length);
    for (const hit of hits) expect(rows.get(hit._id)).toEqual(hitRecord(hit));
  });
});
