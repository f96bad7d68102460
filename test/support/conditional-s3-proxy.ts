// fauxqs 1.9.2 ignores S3's conditional-write headers on PutObject and DeleteObject (it stores the
// object whatever `If-None-Match: *` or `If-Match` say; test/s3-output-lock.test.ts shows it). This
// proxy in front of it adds exactly those semantics as AWS documents them: a PUT with `If-None-Match: *`
// on an existing key, or a PUT or DELETE with `If-Match` whose ETag is not the current one, answers
// 412 PreconditionFailed. Conditional requests on one key are serialised, as S3 does, so racing
// processes see one winner. Everything else passes through untouched.
import { createServer, request } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ConditionalS3Proxy {
  endpoint: string;
  close(): Promise<void>;
}

interface Upstream {
  status: number;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export async function startConditionalS3Proxy(target: string): Promise<ConditionalS3Proxy> {
  const upstream = new URL(target);
  const send = (method: string, path: string, headers: IncomingMessage["headers"], body?: Buffer) =>
    new Promise<Upstream>((resolve, reject) => {
      const outgoing = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method,
          path,
          headers: { ...headers, host: upstream.host },
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: answer.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  const readBody = (incoming: IncomingMessage) =>
    new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => resolve(Buffer.concat(chunks)));
    });
  const reply = (response: ServerResponse, answer: Upstream): void => {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  };
  const queues = new Map<string, Promise<unknown>>();
  const serialised = <T>(key: string, step: () => Promise<T>): Promise<T> => {
    const next = (queues.get(key) ?? Promise.resolve()).then(step, step);
    queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  };

  const server = createServer((incoming, response) => {
    void (async () => {
      const body = await readBody(incoming);
      const method = incoming.method ?? "GET";
      const path = incoming.url ?? "/";
      const ifNoneMatch = incoming.headers["if-none-match"];
      const ifMatch = incoming.headers["if-match"];
      const conditional =
        (method === "PUT" && (ifNoneMatch !== undefined || ifMatch !== undefined)) ||
        (method === "DELETE" && ifMatch !== undefined);
      if (!conditional) return reply(response, await send(method, path, incoming.headers, body));
      const key = path.split("?")[0] ?? path;
      const answer = await serialised(key, async () => {
        const current = await send("HEAD", key, {});
        const etag = current.status === 200 ? current.headers.etag : undefined;
        const failed =
          (ifNoneMatch === "*" && etag !== undefined) || (ifMatch !== undefined && ifMatch !== etag);
        if (failed)
          return {
            status: 412,
            headers: { "content-type": "application/xml" },
            body: Buffer.from(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
            ),
          };
        return send(method, path, incoming.headers, body);
      });
      reply(response, answer);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
