// One push of a run's metrics to a Prometheus Pushgateway, bounded whatever the gateway does: the
// whole attempt (connect, send, answer) ends at a deadline, an answer is read up to a cap, and no
// socket outlives the attempt. A gateway that drips its answer or sends megabytes cannot hold the
// process open or exhaust its memory; credentials of the URL never reach the error's message.
import { request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { redactText, showServerText, urlCredentials } from "../api/redact.js";

/** Bytes of a gateway's answer read at most; its error message needs a line, not megabytes. */
const PUSH_ANSWER_MAX_BYTES = 64 * 1024;

interface PushRequest {
  /** The gateway, as the user gave it (userinfo becomes Basic credentials). */
  url: string;
  job: string;
  groupings: Readonly<Record<string, string>>;
  /** The exposition text and its content type. */
  body: string;
  contentType: string;
  /** The whole attempt, from connect to the answer's end. */
  deadlineMs: number;
  /** Aborts the attempt (a newer push replaces it). */
  signal?: AbortSignal;
}

/** Where a push goes: the gateway's path, then `/metrics/job/<job>/<key>/<value>...`. */
function pushPath(gateway: URL, job: string, groupings: Readonly<Record<string, string>>): string {
  const base = gateway.pathname.replace(/\/+$/, "");
  const labels = Object.entries(groupings)
    .map(([key, value]) => `/${encodeURIComponent(key)}/${encodeURIComponent(value)}`)
    .join("");
  return `${base}/metrics/job/${encodeURIComponent(job)}${labels}`;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * POSTs `body` (replacing only the metrics it names in the group); resolves on a 2xx answer read
 * to its end, rejects with a redacted message otherwise.
 * @example
 * await pushToGateway({ url, job: "mdq-export", groupings, body, contentType, deadlineMs: 10_000 });
 */
export function pushToGateway(push: PushRequest): Promise<void> {
  const secrets = urlCredentials(push.url);
  const gateway = new URL(push.url);
  const headers: Record<string, string | number> = {
    "content-type": push.contentType,
    "content-length": Buffer.byteLength(push.body),
  };
  if (gateway.username !== "" || gateway.password !== "") {
    const pair = `${decoded(gateway.username)}:${decoded(gateway.password)}`;
    headers.authorization = `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
  }
  const send = gateway.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      push.signal?.removeEventListener("abort", onAbort);
      // No socket outlives the attempt: no keep-alive, nothing left reading a dripping answer.
      request.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = (): void => finish(new Error("replaced by a newer push"));
    const request = send({
      protocol: gateway.protocol,
      hostname: gateway.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: gateway.port === "" ? undefined : Number(gateway.port),
      path: pushPath(gateway, push.job, push.groupings),
      method: "POST",
      headers,
      agent: false,
    });
    const deadline = setTimeout(
      () => finish(new Error(`no complete answer within ${push.deadlineMs / 1000}s`)),
      push.deadlineMs,
    );
    if (push.signal?.aborted === true) return onAbort();
    push.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error: Error) => finish(new Error(redactText(error.message, secrets))));
    request.on("response", (answer: IncomingMessage) => {
      const status = answer.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let length = 0;
      const failure = (suffix: string): Error => {
        const text = Buffer.concat(chunks).toString("utf8");
        const shown = text === "" ? "" : `: ${showServerText(text, secrets)}`;
        return new Error(`the gateway answered HTTP ${status}${shown}${suffix}`);
      };
      answer.on("data", (chunk: Buffer) => {
        length += chunk.length;
        if (length <= PUSH_ANSWER_MAX_BYTES) chunks.push(chunk);
        else finish(failure(` (answer longer than ${PUSH_ANSWER_MAX_BYTES} bytes, not read further)`));
      });
      answer.on("error", (error: Error) => finish(new Error(redactText(error.message, secrets))));
      answer.on("end", () => finish(status >= 200 && status < 300 ? undefined : failure("")));
    });
    request.end(push.body);
  });
}
