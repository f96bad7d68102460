// The emulator keeps its data per kind in one table (src/emulator/kind-data.ts), apart from the
// exporter's kinds: every kind the exporter offers must have an entry there, the mappings the emulator
// serves must stay within the kind's field table, and every field a generated record carries must be
// one the kind's own mappings call reports, or a pipeline's columns would miss it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { KINDS } from "../src/components/registry.js";
import { GENERATED_KINDS, KIND_DATA } from "../src/emulator/kind-data.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { DataKindComponent } from "../src/kinds/data-kind.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T03:00:00Z";

/** The dotted paths of a record's values (null included), as mappings name fields. */
function leafPaths(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) =>
    leafPaths(inner, prefix === "" ? key : `${prefix}.${key}`),
  );
}

/** The names a kind's field table allows: each field and its multi-field companions. */
function tableNames(kind: DataKindComponent): Set<string> {
  return new Set(
    kind.fields.flatMap((field) => [
      field.name,
      ...(field.companions ?? []).map((companion) => `${field.name}.${companion.suffix}`),
    ]),
  );
}

describe("the emulator's data per kind", () => {
  let emulator: RunningEmulator;
  let client: ServiceClient;
  beforeAll(async () => {
    emulator = await startEmulator({ density: 4, clock: () => Date.parse("2026-11-21T00:00:00Z") });
    client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it("has an entry for every kind the exporter offers, and none it does not", () => {
    const offered = Object.values(KINDS).map((kind) => kind.type);
    expect(Object.keys(KIND_DATA).sort()).toEqual([...offered].sort());
    // The summary counts another kind's records.
    expect(GENERATED_KINDS).toContain(KIND_DATA.billing.counts);
  });

  for (const kind of Object.values(KINDS)) {
    it(`${kind.type}: every generated field is mapped, every mapped field is in the kind's table`, async () => {
      const data = KIND_DATA[kind.type];
      const api = kind.apiVersion(undefined);
      const appTypes = kind.appTypes(api);
      const table = tableNames(kind);
      if (!("generate" in data)) {
        // A summary kind has no mappings operation: its table is its schema.
        const mapped = await kind.mappings(client, { kind: kind.type, app_type: [], includes_eu: false });
        expect(mapped.map((field) => field.name).every((name) => table.has(name))).toBe(true);
        return;
      }
      for (const appType of appTypes) {
        // Serverless logs are event operations' only.
        const application = appType === "serverless" ? "eventops" : kind.applications[0];
        const mapped = await kind.mappings(client, {
          kind: kind.type,
          application,
          app_type: [appType],
          includes_eu: false,
        });
        const names = new Set(mapped.map((field) => field.name));
        expect(names.size, `${kind.type} ${appType} maps fields`).toBeGreaterThan(0);
        expect(
          [...names].filter((name) => !table.has(name)),
          `${kind.type} ${appType}`,
        ).toEqual([]);
        const body = { application, app_type: [appType], domain: ["*"], start_time: START, end_time: END };
        let records = 0;
        const unmapped = new Set<string>();
        for await (const hit of emulator.expectedHits(data.query, body)) {
          records += 1;
          for (const path of leafPaths(hit._source)) if (!names.has(path)) unmapped.add(path);
        }
        expect(records, `${kind.type} ${appType} has records`).toBeGreaterThan(0);
        expect([...unmapped], `${kind.type} ${appType} fields without a mapping`).toEqual([]);
      }
    });
  }
});
