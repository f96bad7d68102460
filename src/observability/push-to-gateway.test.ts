import { createServer } from "node:http";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pushToGateway } from "./push-to-gateway.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A gateway answering with `answer`, or never when it returns false. */
async function gateway(answer: (req: IncomingMessage) => { status: number; body: string } | false) {
  const seen: { url: string | undefined; authorization: string | undefined; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ url: req.url, authorization: req.headers.authorization, body });
      const reply = answer(req);
      if (reply !== false) res.writeHead(reply.status).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, seen };
}

const push = { job: "mdq-export", body: "m 1\n", contentType: "text/plain", deadlineMs: 1000 };

describe("pushToGateway", () => {
  it("POSTs under the gateway's own path, with the URL's credentials as Basic", async () => {
    const { port, seen } = await gateway(() => ({ status: 200, body: "" }));
    await pushToGateway({
      ...push,
      url: `http://ci:p%40ss@127.0.0.1:${port}/pgw/`,
      groupings: { pipeline: "nightly jobs", shard: "0-of-2" },
    });
    expect(seen).toEqual([
      {
        url: "/pgw/metrics/job/mdq-export/pipeline/nightly%20jobs/shard/0-of-2",
        authorization: `Basic ${Buffer.from("ci:p@ss").toString("base64")}`,
        body: "m 1\n",
      },
    ]);
  });

  it("gives up at the deadline on a gateway that never answers", async () => {
    const { port } = await gateway(() => false);
    const started = performance.now();
    await expect(pushToGateway({ ...push, url: `http://127.0.0.1:${port}`, groupings: {} })).rejects.toThrow(
      "no complete answer within 1s",
    );
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("stops at once when aborted by a newer push", async () => {
    const { port } = await gateway(() => false);
    const stop = new AbortController();
    const pending = pushToGateway({
      ...push,
      url: `http://127.0.0.1:${port}`,
      groupings: {},
      signal: stop.signal,
    });
    stop.abort();
    await expect(pending).rejects.toThrow("replaced by a newer push");
  });
});
