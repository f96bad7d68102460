// One service operation from request to response: faults, bearer check, permission, quota, body
// validation (400 with field-level problems), the route, and the 413 payload limit on v3 queries.
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { formatProblem, isPresentString } from "../api/wire/common.js";
import { validateRequest } from "../api/wire/operations.js";
import { TooManyBucketsError } from "./aggregations.js";
import type { OperationPath } from "../api/wire/operations.js";
import { readBody, sendJson, sendText } from "./http-io.js";
import { isAwkward } from "./awkward-data.js";
import { jsonText } from "./raw-json.js";
import { errorBody } from "./route-context.js";
import type { EmulatorState, Route } from "./route-context.js";
import type { Body } from "./plan.js";
import { V1_ROUTES } from "./routes-v1.js";
import { V2_ROUTES } from "./routes-v2.js";
import { V3_ROUTES } from "./routes-v3.js";

const ROUTES: Record<OperationPath, Route> = { ...V1_ROUTES, ...V2_ROUTES, ...V3_ROUTES };

type OperationHandler = (path: OperationPath, req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** `baseUrl` gives the server's base URL, known once it listens. */
export function createOperationHandler(state: EmulatorState, baseUrl: () => string): OperationHandler {
  const { options, issuer, quota, faults } = state;
  return async (path, req, res) => {
    /** Answers with the family's error body. */
    const fail = (status: number, error: string, details: string, headers = {}, extra = {}) =>
      sendJson(res, status, errorBody(path, status, error, details, extra), headers);
    const drawn = faults.draw();
    if (drawn.delayMs > 0) await sleep(drawn.delayMs);
    const bearer = await issuer.check(req.headers.authorization);
    if (!bearer.ok || drawn.revoked) {
      const reason = bearer.ok ? "revoked" : bearer.reason;
      return fail(401, "unauthorized", `access token ${reason}`, {
        "www-authenticate": `Bearer error="invalid_token"`,
      });
    }
    if (!issuer.isAllowed(bearer.client, path))
      return fail(403, "forbidden", `this client is not permitted to call ${path}`);
    if (drawn.status === 429)
      return fail(429, "too_many_requests", "rate limited; retry later", {
        "retry-after": String(options.faults.retryAfterSeconds),
      });
    if (drawn.status !== undefined)
      return fail(drawn.status, "service_error", `upstream failure (${drawn.status})`);
    const remaining = quota.take(bearer.client.clientId);
    if (remaining === undefined) {
      const details = `daily request quota of ${options.quota} exhausted; it resets in ${quota.secondsToReset()} s`;
      return fail(429, "quota_exceeded", details, { "retry-after": String(quota.secondsToReset()) });
    }
    const text = await readBody(req);
    let parsed: unknown;
    try {
      parsed = text === undefined ? null : text.trim() === "" ? undefined : JSON.parse(text);
    } catch {
      return fail(400, "bad_request", "the body is not valid JSON");
    }
    if (parsed === null) return fail(413, "payload_too_large", "request body too large");
    // The spec answers a missing batch token like an invalid one: 401, not a validation 400.
    if (path === "/v1/logs/batch/urls" && !isPresentString((parsed as Body | undefined)?.["token"]))
      return fail(401, "unauthorized", "missing batch token");
    const problems = validateRequest(path, parsed);
    if (problems.length > 0) {
      const list = problems.map(({ field, message }) => ({ field, message }));
      const details = problems.map(formatProblem).join("; ");
      return fail(400, "bad_request", details, {}, path.startsWith("/v1/") ? {} : { problems: list });
    }
    const body = (parsed ?? {}) as Body;
    let result;
    try {
      result = ROUTES[path]({
        path,
        body,
        client: bearer.client,
        remaining,
        state,
        baseUrl: baseUrl(),
        faults: drawn,
      });
    } catch (error) {
      if (!(error instanceof TooManyBucketsError)) throw error;
      return fail(400, "too_many_buckets_exception", error.message);
    }
    // Encoded once: the same bytes serve the payload-limit check and the response.
    // Awkward data holds exact digits, escapes and repeated keys that only jsonText writes.
    const answer = isAwkward(options.awkward) ? jsonText(result.body) : JSON.stringify(result.body);
    const bytes = Buffer.from(answer, "utf8");
    if (result.payloadLimited && bytes.length > options.payloadLimitBytes) {
      const details = `response over the safe payload limit of ${options.payloadLimitBytes} bytes; reduce size, use fields, or use a batch endpoint`;
      return fail(413, "payload_too_large", details);
    }
    result.commit?.();
    const bodyFaults = result.status === 200 ? drawn : undefined;
    sendText(res, result.status, bytes, {}, bodyFaults);
  };
}
