// Serves one batch partition file, generated on the fly in the configured format (NDJSON, gzip NDJSON
// or a JSON array of hits), with backpressure: memory stays flat however large the partition.
import type { ServerResponse } from "node:http";
import { createGzip } from "node:zlib";
import type { Writable } from "node:stream";
import { once } from "node:events";
import type { PartitionFormat } from "./options.js";
import type { Partition } from "./batch-store.js";
import { pages } from "./scan.js";
import { isAwkward } from "./awkward-data.js";
import { jsonText } from "./raw-json.js";

const CHUNK = 2000;

/** Writes with backpressure; a client that goes away ends the wait (no generator left hanging). */
async function write(target: Writable, text: string, closed: AbortSignal): Promise<void> {
  if (target.write(text) || closed.aborted) return;
  await once(target, "drain", { signal: closed }).catch(() => undefined);
}

export async function sendPartition(
  res: ServerResponse,
  partition: Partition,
  format: PartitionFormat,
): Promise<void> {
  res.statusCode = 200;
  // A gzip partition is a .gz object (as object stores serve it), not a transfer encoding.
  const type = {
    "json-array": "application/json",
    ndjson: "application/x-ndjson",
    "ndjson-gzip": "application/gzip",
  };
  res.setHeader("content-type", type[format]);
  let target: Writable = res;
  if (format === "ndjson-gzip") {
    const gzip = createGzip();
    gzip.pipe(res);
    target = gzip;
  }
  const gone = new AbortController();
  res.once("close", () => gone.abort());
  const isArray = format === "json-array";
  const toText = isAwkward(partition.plan.awkward) ? jsonText : JSON.stringify;
  if (isArray) await write(target, "[", gone.signal);
  let first = true;
  for (const hits of pages(partition.plan, CHUNK)) {
    let text = "";
    for (const hit of hits) {
      const line = toText(hit);
      text += isArray ? (first ? line : `,${line}`) : `${line}\n`;
      first = false;
    }
    await write(target, text, gone.signal);
    if (gone.signal.aborted) return;
  }
  if (isArray) await write(target, "]", gone.signal);
  target.end();
  if (target !== res) await once(res, "finish");
}
