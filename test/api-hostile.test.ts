// The client against services that do not play fair, each a real HTTP server written here: bodies
// that never end or drip, token requests that hang, a service that stays down, pages over the cap,
// and cursors that loop. Every read is bounded in bytes and time, and every loop stops early.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import type { ServerResponse } from "node:http";
import type { LookupFunction } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../src/errors.js";
import { createLogger } from "../src/logger.js";
import { reportError } from "../src/cli/report-error.js";
import { V3_HITS, v2HitArray } from "../src/api/hit-arrays.js";
import { pageThrough } from "../src/api/paging/pager.js";
import { pointInTime as pointInTimeStrategy } from "../src/api/paging/point-in-time.js";
import { logsScroll } from "../src/kinds/logs.js";
import type { RequestOf } from "../src/api/service-operation.js";
import { awaitBatchReady } from "../src/api/paging/batch-status.js";
import type { PartitionState } from "../src/api/paging/batch-status.js";
import { readPartition } from "../src/api/paging/read-partition.js";
import { v2BatchExport } from "../src/api/paging/batch-exports.js";
import { JOBS_BODY, answerToken, startHostileService } from "./support/hostile-service.js";
import {
  SERVICE_FROM_ENV,
  dataFiles,
  listTree,
  makeTempDir,
  removeDir,
  spawnCli,
  startTestService,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import { listAllFiles } from "./support/read-output.js";
import type { HostileRequest, HostileService } from "./support/hostile-service.js";

const services: HostileService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

async function hostile(...args: Parameters<typeof startHostileService>): Promise<HostileService> {
  const service = await startHostileService(...args);
  services.push(service);
  return service;
}

/** Writes bytes until the client goes away, respecting back-pressure. */
function endless(res: ServerResponse, chunk: Buffer): void {
  res.writeHead(200, { "content-type": "application/json" });
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", pump);
  };
  pump();
}

/** Sends headers, then one byte at a time, never finishing. */
function drip(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(" ")), 20);
  res.on("close", () => clearInterval(timer));
}

function captureLogs(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()),
  });
  return { logger: createLogger({ level: "debug", destination }), lines };
}

function v3Hit(id: string, sort: number, padding = 0): Record<string, unknown> {
  return { _index: "jobs", _id: id, _score: null, _source: { pad: "x".repeat(padding) }, sort: [sort] };
}

function v3Page(
  hits: unknown[],
  total: number,
  pagination: { pit_id: string | null; search_after: unknown[] | null },
): string {
  return JSON.stringify({
    data: { hits, total, count: hits.length },
    meta: { trace_id: "t", rate_limit: { daily_remaining: 1000 }, pagination },
  });
}

describe("bounds on every read", () => {
  it("stops a 200 whose body never ends at max_response_bytes, without retrying it", async () => {
    const service = await hostile(({ path }, res) =>
      path === "/oauth2/token" ? answerToken(res) : endless(res, Buffer.alloc(64 * 1024, 0x20)),
    );
    const client = service.client({ maxResponseBytes: 256 * 1024 });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("RESPONSE_TOO_LARGE");
    expect((error as ApiError).message).toContain("max_response_bytes");
    expect(service.count("/v3/jobs/mappings")).toBe(1);
  });

  it("applies request_ms to headers and body together: a body dripping forever fails within the deadline", async () => {
    const service = await hostile(({ path }, res) =>
      path === "/oauth2/token" ? answerToken(res) : drip(res),
    );
    const client = service.client({ timeouts: { requestMs: 300 }, retry: { maxAttempts: 2 } });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain("RESPONSE_DEADLINE");
    expect((error as ApiError).retryable).toBe(true);
    expect(service.count("/v3/jobs/mappings")).toBe(2);
  });

  it("applies the deadline to the token request too", async () => {
    const service = await hostile((_request, res) => drip(res));
    const client = service.client({ timeouts: { requestMs: 300 }, retry: { maxAttempts: 2 } });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    expect((error as ApiError).message).toContain("RESPONSE_DEADLINE");
    expect(service.count("/oauth2/token")).toBe(2);
    expect(service.count("/v3/jobs/mappings")).toBe(0);
  });

  it("ends a call waiting on a token request that never answers as soon as the run is stopped, and closes", async () => {
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (received = resolve));
    // Never answers: no status line, no headers.
    const service = await hostile(() => received());
    const client = service.client();
    const stop = new AbortController();
    const pending = client.call("/v3/jobs/mappings", {}, { signal: stop.signal });
    await arrived;
    stop.abort(new Error("SIGTERM"));
    await expect(pending).rejects.toThrow("SIGTERM");
    await client.close();
  });

  it("reads an error body only as far as its message, however long the server keeps sending", async () => {
    const service = await hostile(({ path }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      res.writeHead(400, { "content-type": "text/plain" });
      const pump = (): void => {
        while (!res.destroyed && res.write(Buffer.alloc(64 * 1024, 0x61)));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    const client = service.client({ maxResponseBytes: 1024 * 1024 });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message.length).toBeLessThan(400);
  });
});

describe("one retry budget per operation", () => {
  it("counts a failing token request as an attempt of the operation, not as retries nested in each attempt", async () => {
    const service = await hostile(({ path }, res) => {
      res.writeHead(path === "/oauth2/token" ? 503 : 200, { "content-type": "application/json" });
      res.end('{"detail":"issuer down"}');
    });
    const { logger, lines } = captureLogs();
    const client = service.client({ retry: { maxAttempts: 4 }, logger });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    expect(service.count("/oauth2/token")).toBe(4);
    expect((error as ApiError).retryable).toBe(true);
    const warnings = lines.filter((line) => line.includes("Retrying a service request."));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toContain(new URL(service.url).host);
    expect(warnings[0]).toContain("issuer down");
  });

  it("ends with exit 75 and warnings naming the host and the error when the service stays unreachable", async () => {
    const down = await hostile(() => undefined);
    const url = down.url;
    await down.close();
    services.splice(services.indexOf(down), 1);
    const again = await hostile(() => undefined);
    const { logger, lines } = captureLogs();
    const client = again.client({ baseUrl: url, authUrl: url, logger, retry: { maxAttempts: 3 } });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    const warnings = lines.filter((line) => line.includes("Retrying a service request."));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(new URL(url).host);
    expect(warnings[0]).toContain("ECONNREFUSED");
    const stderr = new PassThrough();
    expect(reportError(error, stderr, false)).toBe(75);
  });
});

describe("pages over the byte cap", () => {
  it("asks a point in time again with a smaller page when the body passes max_response_bytes", async () => {
    const sizes: number[] = [];
    const service = await hostile(({ path, body }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      const size = (JSON.parse(body) as { size: number }).size;
      sizes.push(size);
      const hits = Array.from({ length: size }, (_, i) => v3Hit(`id-${i}`, i, 2048));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(v3Page(hits, size, { pit_id: null, search_after: null }));
    });
    const client = service.client({ maxResponseBytes: 64 * 1024 });
    const pages = [];
    for await (const part of pageThrough(
      client,
      pointInTimeStrategy("/v3/jobs/query", { ...JOBS_BODY, size: 100 }),
      V3_HITS,
    ))
      if (part.type === "hits") pages.push(part);
    expect(sizes).toEqual([100, 50, 25]);
    expect(pages.flatMap((page) => page.hits)).toHaveLength(25);
  });
});

describe("paging guards", () => {
  async function runaway(service: HostileService, paging: () => AsyncIterable<unknown>): Promise<ApiError> {
    const error = await (async () => {
      for await (const _page of paging()) {
        // Consume.
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("PAGING_RUNAWAY");
    expect(service.count("/v3/jobs/query") + service.count("/v2/logs/scroll")).toBeLessThan(30);
    return error as ApiError;
  }

  /** A point in time whose `n`th answer (from 1) is `page(n)`. */
  async function pointInTime(page: (n: number) => string): Promise<HostileService> {
    let n = 0;
    return hostile(({ path }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      n += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(page(n));
    });
  }

  it("stops a point in time that repeats its search_after", async () => {
    const service = await pointInTime((n) =>
      v3Page([v3Hit(`id-${n}`, 1)], 1_000_000, { pit_id: "pit", search_after: [1] }),
    );
    const client = service.client();
    const error = await runaway(service, () =>
      pageThrough(client, pointInTimeStrategy("/v3/jobs/query", { ...JOBS_BODY, size: 1 }), V3_HITS),
    );
    expect(error.message).toContain("/v3/jobs/query");
    expect(service.count("/v3/jobs/query")).toBe(2);
  });

  it("stops a point in time that keeps handing fresh cursors past the reported total", async () => {
    const service = await pointInTime((n) => {
      const hits = Array.from({ length: 10 }, (_, i) => v3Hit(`id-${n}-${i}`, n * 10 + i));
      return v3Page(hits, 10, { pit_id: "pit", search_after: [n * 10 + 9] });
    });
    const client = service.client();
    const error = await runaway(service, () =>
      pageThrough(client, pointInTimeStrategy("/v3/jobs/query", { ...JOBS_BODY, size: 10 }), V3_HITS),
    );
    expect(error.message).toContain("past the 10 records");
    expect(service.count("/v3/jobs/query")).toBe(2);
  });

  it("stops a paging that needs far more requests than its total and page size allow", async () => {
    // One hit per page where 50 were asked for; a reported total of 100 needs 2 pages.
    const service = await pointInTime((n) =>
      v3Page([v3Hit(`id-${n}`, n)], 100, { pit_id: "pit", search_after: [n] }),
    );
    const client = service.client();
    await runaway(service, () =>
      pageThrough(client, pointInTimeStrategy("/v3/jobs/query", { ...JOBS_BODY, size: 50 }), V3_HITS),
    );
    expect(service.count("/v3/jobs/query")).toBe(15);
  });

  it("stops a scroll that answers the same page again and again", async () => {
    const service = await hostile(({ path }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      const logs = [1, 2, 3].map((i) => ({ _index: "logs", _id: `log-${i}`, _source: { i } }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          data: { logs, count: 1_000_000 },
          meta: {
            api_version: "v2",
            time_range: { start: null, end: null },
            rate_limit: { daily_remaining: 1000 },
            request_id: "r",
            scroll_id: "same-scroll",
          },
        }),
      );
    });
    const client = service.client();
    const body: RequestOf<"/v2/logs/scroll"> = {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      start_time: "2026-11-20T00:00:00Z",
      end_time: "2026-11-20T01:00:00Z",
      size: 3,
    };
    const error = await runaway(service, () => pageThrough(client, logsScroll(body), v2HitArray("logs")));
    expect(error.message).toContain("/v2/logs/scroll");
    expect(service.count("/v2/logs/scroll")).toBe(2);
  });
});

describe("secrets and batch links from a hostile service", () => {
  it("shows no part of the client secret when the token endpoint echoes the form it received", async () => {
    const secret = "s3cret with+plus/and=equals";
    const service = await hostile(({ body }, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: `cannot handle ${body}`, raw: body }));
    });
    const { logger, lines } = captureLogs();
    const client = service.client({ clientSecret: secret, logger, retry: { maxAttempts: 2 } });
    const error = await client.call("/v3/jobs/mappings", {}).catch((caught: unknown) => caught);
    const shown = [String(error), JSON.stringify(error), ...lines].join("\n");
    expect(shown).toContain("cannot handle");
    for (const leak of ["s3cret", encodeURIComponent(secret), "with%2Bplus", "with+plus"]) {
      expect(shown).not.toContain(leak);
    }
  });

  it("reads a partition listed twice once, and refuses a link to a metadata address", async () => {
    const batchMeta = {
      api_version: "v2",
      time_range: { start: null, end: null },
      rate_limit: { daily_remaining: 1000 },
      request_id: "r",
    };
    let base = "";
    const partition = (start: string, url: string) => ({
      start_time: start,
      end_time: "2026-11-20T01:00:00Z",
      presigned_url: url,
      completed: true,
      status: "completed",
      log_count: 1,
    });
    const service = await hostile(({ path }, res) => {
      if (path === "/oauth2/token") return answerToken(res);
      res.writeHead(200, { "content-type": "application/json" });
      if (path === "/v2/logs/batch")
        return res.end(JSON.stringify({ data: { token: "b1" }, meta: batchMeta }));
      if (path === "/files/p0") return res.end('{"_id":"x","_index":"logs","_source":{}}\n');
      res.end(
        JSON.stringify({
          presigned_urls: [
            partition("2026-11-20T00:00:00Z", `${base}/files/p0?sig=1`),
            partition("2026-11-20T00:00:00Z", `${base}/files/p0?sig=2`),
            partition("2026-11-20T00:30:00Z", "http://169.254.169.254/latest/meta-data/iam"),
          ],
        }),
      );
    });
    base = service.url;
    const client = service.client();
    const body = {
      application: "atr" as const,
      app_type: "ec2" as const,
      domain: ["*"],
      start_time: "2026-11-20T00:00:00Z",
      end_time: "2026-11-20T01:00:00Z",
    };
    const batch = v2BatchExport("/v2/logs/batch", body, "log_count");
    const { token, partitions } = await awaitBatchReady(client, batch);
    expect(partitions.map((p) => p.id)).toEqual([
      "2026-11-20T00:00:00Z/2026-11-20T01:00:00Z",
      "2026-11-20T00:30:00Z/2026-11-20T01:00:00Z",
    ]);
    const signal = new AbortController().signal;
    const [first, metadata] = partitions as [PartitionState, PartitionState];
    const rows = [];
    for await (const page of readPartition(client, batch, token, first, 100, signal)) rows.push(...page);
    expect(rows).toHaveLength(1);
    const refused = await (async () => {
      for await (const _page of readPartition(client, batch, token, metadata, 100, signal)) {
        // Never reached.
      }
    })().catch((caught: unknown) => caught);
    expect(String(refused)).toMatch(/refusing to download .*169\.254\.169\.254.*link-local/);
    expect(service.count("/files/p0")).toBe(1);
  });
});

describe("a download host that resolves elsewhere once its link was checked (DNS rebinding)", () => {
  it("never connects when the name resolves to the metadata address at connect time; connects when it resolves as checked", async () => {
    const service = await hostile((request, res) => {
      if (request.path === "/files/p0") res.end('{"n":1}\n');
      else res.writeHead(404).end();
    });
    const port = new URL(service.url).port;
    // The link names a host the checker cannot resolve (no addresses, so nothing forbidden); the
    // connection then resolves it as the attacker wants.
    const url = `http://rebind.invalid:${port}/files/p0?X-Amz-Signature=s3cret`;
    const resolvingTo =
      (address: string): LookupFunction =>
      (_hostname, options, callback) => {
        if (options.all === true) callback(null, [{ address, family: 4 }]);
        else callback(null, address, 4);
      };

    const rebound = service.client({ downloadLookup: resolvingTo("169.254.169.254") });
    const refused = await rebound.download(url).catch((caught: unknown) => caught);
    await rebound.close();
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("DOWNLOAD_REFUSED");
    expect(String(refused)).toMatch(/when connecting, rebind\.invalid resolved to 169\.254\.169\.254/);
    expect(String(refused)).not.toContain("s3cret");
    expect(service.count("/files/p0")).toBe(0);

    const honest = service.client({ downloadLookup: resolvingTo("127.0.0.1") });
    const response = await honest.download(url);
    expect(await response.body.text()).toBe('{"n":1}\n');
    await honest.close();
    expect(service.count("/files/p0")).toBe(1);
  });
});

describe("IPv6 forms of the metadata address in a partition link", () => {
  it.each(["[::a9fe:a9fe]", "[::ffff:169.254.169.254]", "[64:ff9b::a9fe:a9fe]"])(
    "refuses %s, literal or resolved, without connecting",
    async (host) => {
      const service = await hostile((_request, res) => res.end('{"n":1}\n'));
      const literal = service.client();
      const refused = await literal
        .download(`http://${host}/latest/meta-data/iam`)
        .catch((caught: unknown) => caught);
      expect((refused as ApiError).code).toBe("DOWNLOAD_REFUSED");
      expect(String(refused)).toContain("carrying 169.254.169.254");
      const address = host.slice(1, -1);
      const lookup: LookupFunction = (_hostname, options, callback) => {
        if (options.all === true) callback(null, [{ address, family: 6 }]);
        else callback(null, address, 6);
      };
      const rebound = service.client({ downloadLookup: lookup });
      const port = new URL(service.url).port;
      const error = await rebound
        .download(`http://rebind.invalid:${port}/files/p0`)
        .catch((caught: unknown) => caught);
      expect((error as ApiError).code).toBe("DOWNLOAD_REFUSED");
      expect(String(error)).toContain(`rebind.invalid resolved to ${address} (carrying 169.254.169.254)`);
      expect(service.count("/files/p0") + service.count("/latest/meta-data/iam")).toBe(0);
    },
  );
});

describe("the CLI stopped while the token issuer never answers", () => {
  it("ends on SIGTERM with exit 75 and the resume hint, having written nothing and left no lock", async () => {
    // Never answers: no status line, no headers.
    const service = await hostile(() => undefined);
    const dir = await makeTempDir("hanging-token");
    try {
      const out = join(dir, "out");
      const pipeline = await writeJobsPipeline(dir, { name: "hanging-token", hours: 2 });
      const cli = spawnCli(["run", pipeline], {
        MDQ_BASE_URL: service.url,
        MDQ_AUTH_URL: service.url,
        MDQ_CLIENT_ID: "hostile-id",
        MDQ_CLIENT_SECRET: "hostile-secret-value",
        OUT: out,
      });
      await waitFor(() => service.count("/oauth2/token") >= 1, "the token request");
      cli.child.kill("SIGTERM");
      expect(await cli.exited, cli.stderr()).toBe(75);
      expect(cli.stderr()).toMatch(/SIGTERM received/);
      expect(cli.stderr()).not.toContain("hostile-secret-value");
      // The output's lock is taken before the token is asked for (a run that cannot have its output
      // asks nothing), so the folders may exist; no file may: no data, no state, the lock released.
      expect(existsSync(out) ? await listAllFiles(out) : []).toEqual([]);
    } finally {
      await removeDir(dir);
    }
  });
});

/** Passes a request on to the emulator and its answer back. */
async function forward(emulatorUrl: string, request: HostileRequest, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "content-type", "accept"]) {
    const value = request.req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const answer = await fetch(`${emulatorUrl}${request.req.url ?? request.path}`, {
    method: request.req.method ?? "POST",
    headers,
    ...(request.body === "" ? {} : { body: request.body }),
  });
  res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
  res.end(Buffer.from(await answer.arrayBuffer()));
}

describe("a query that drips every answer, through the CLI", () => {
  it("stops with exit 75 after one operation's retry budget: the slice does not start the operation again", async () => {
    // The emulator answers everything (token, mappings, opening a point in time) but the page queries,
    // which send their headers and then one byte every 20 ms, forever.
    const emulator = await startTestService({ seed: 3 });
    const service = await hostile((request, res) =>
      request.path === "/v3/jobs/query" ? drip(res) : forward(emulator.emulator.url, request, res),
    );
    const dir = await makeTempDir("drip-budget");
    try {
      const out = join(dir, "out");
      const pipeline = await writePipeline(dir, {
        name: "drip-budget",
        service: { ...SERVICE_FROM_ENV, timeouts: { request_ms: 1000 } },
        source: {
          kind: "jobs",
          application: "atr",
          app_type: ["ec2"],
          domain: ["*"],
          window: { start: "2026-11-10T00:00:00Z", end: "2026-11-10T02:00:00Z", slice: "1h" },
          strategy: "pit",
        },
        sinks: [{ format: "ndjson", to: out, path: "part-{slice}-{seq}.ndjson" }],
        // One slice at a time, restarted up to 3 times: the setting that multiplied the attempts.
        limits: { concurrency: 1, max_retries_per_slice: 3 },
      });
      const started = Date.now();
      const cli = spawnCli(["run", pipeline], {
        ...emulator.env,
        MDQ_BASE_URL: service.url,
        MDQ_AUTH_URL: service.url,
      });
      expect(await cli.exited, cli.stderr()).toBe(75);
      const elapsedMs = Date.now() - started;
      // The default budget of one operation: 6 attempts (docs/operations.md, "Limits and safety").
      expect(service.count("/v3/jobs/query")).toBe(6);
      // 6 attempts of request_ms each, plus at most 0.25 + 0.5 + 1 + 2 + 4 s of backoff, plus start-up.
      expect(elapsedMs).toBeLessThan(6 * 1000 + 7750 + 5000);
      expect(cli.stderr()).toMatch(/gave up after 6 attempts in \d+\.\d s/);
      expect(cli.stderr()).toContain("RESPONSE_DEADLINE");
      expect(existsSync(out) ? dataFiles(await listTree(out)) : []).toEqual([]);
    } finally {
      await removeDir(dir);
      await emulator.close();
    }
  }, 60_000);
});
