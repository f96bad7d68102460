// The emulator's token issuer and bearer checks: client-credentials form → signed JWT (HS256, expiry
// from the injected clock); 401 for missing, invalid, expired or revoked tokens; 403 by client rights.
import { randomBytes } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import type { OperationPath } from "../api/wire/operations.js";
import type { ClientCredentials, Clock } from "./options.js";

export interface TokenGrant {
  status: number;
  body: Record<string, unknown>;
}

export type BearerCheck =
  | { ok: true; client: ClientCredentials }
  | { ok: false; reason: "missing" | "invalid" | "expired" | "revoked" };

export interface TokenIssuer {
  grant(form: URLSearchParams): Promise<TokenGrant>;
  check(authorization: string | undefined): Promise<BearerCheck>;
  /** Every token issued so far becomes invalid (401); new ones work. */
  revokeAll(): void;
  isAllowed(client: ClientCredentials, path: OperationPath): boolean;
}

/** An OAuth error answer to a token request. */
function refuse(status: number, error: string, description: string): TokenGrant {
  return { status, body: { error, error_description: description } };
}

export function createTokenIssuer(
  clients: readonly ClientCredentials[],
  ttlSeconds: number,
  clock: Clock,
): TokenIssuer {
  const key = randomBytes(32);
  // Only tokens issued since the last revocation; revoked ones are remembered until they expire anyway.
  const issued = new Set<string>();
  const revoked = new Set<string>();
  let serial = 0;
  return {
    async grant(form) {
      if (form.get("grant_type") !== "client_credentials")
        return refuse(400, "unsupported_grant_type", "grant_type must be client_credentials");
      const client = clients.find(
        (c) => c.clientId === form.get("client_id") && c.clientSecret === form.get("client_secret"),
      );
      if (!client) return refuse(401, "invalid_client", "unknown client or wrong secret");
      const now = clock();
      const expiresMs = now + ttlSeconds * 1000;
      const token = await new SignJWT({ scope: "mdq/read", client_id: client.clientId })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(client.clientId)
        .setIssuedAt(Math.floor(now / 1000))
        .setExpirationTime(Math.floor(expiresMs / 1000))
        .setJti(`${now.toString(36)}.${(serial++).toString(36)}`)
        .sign(key);
      issued.add(token);
      return { status: 200, body: { access_token: token, token_type: "Bearer", expires_in: ttlSeconds } };
    },
    async check(authorization) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
      if (!match?.[1]) return { ok: false, reason: "missing" };
      const token = match[1];
      let subject: string | undefined;
      try {
        const verified = await jwtVerify(token, key, {
          currentDate: new Date(clock()),
          algorithms: ["HS256"],
        });
        subject = verified.payload.sub;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        return { ok: false, reason: code === "ERR_JWT_EXPIRED" ? "expired" : "invalid" };
      }
      if (revoked.has(token)) return { ok: false, reason: "revoked" };
      const client = clients.find((c) => c.clientId === subject);
      return client ? { ok: true, client } : { ok: false, reason: "invalid" };
    },
    revokeAll() {
      for (const token of issued) revoked.add(token);
      issued.clear();
    },
    isAllowed(client, path) {
      return client.allowed === "all" || client.allowed.includes(path);
    },
  };
}
