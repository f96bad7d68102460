// Which presigned partition links the client follows: https (http only when the service itself is
// reached over http, as a local emulator is), never an address that reaches the machine's own
// metadata or link-local services, and, when configured, only the listed hosts. Literal addresses
// and the addresses a name resolves to are both checked.
import { lookup as lookupCallback } from "node:dns";
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { LookupFunction } from "node:net";
import { ApiError } from "../errors.js";
import { describeUrl } from "./redact.js";

export interface DownloadPolicyOptions {
  /** The service's address: its scheme decides whether http links are allowed. */
  baseUrl: string;
  /** Host names (lower case, exact or `*.suffix`) links may name; every host when undefined. */
  allowedHosts?: readonly string[] | undefined;
  /** Name resolution, injectable for tests. */
  resolve?: (host: string) => Promise<readonly string[]>;
}

/** Link-local (cloud metadata lives there), the metadata addresses, and unspecified addresses. */
const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet("169.254.0.0", 16, "ipv4");
FORBIDDEN.addSubnet("0.0.0.0", 8, "ipv4");
FORBIDDEN.addSubnet("fe80::", 10, "ipv6");
FORBIDDEN.addAddress("::", "ipv6");
FORBIDDEN.addAddress("fd00:ec2::254", "ipv6");

/** An IPv4-mapped IPv6 address (::ffff:169.254.169.254) is judged as the IPv4 address it carries. */
function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return FORBIDDEN.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 0) return false;
  return FORBIDDEN.check(address, family === 4 ? "ipv4" : "ipv6");
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const rule = entry.toLowerCase();
    return rule.startsWith("*.") ? host.endsWith(rule.slice(1)) : host === rule;
  });
}

async function resolveAll(host: string): Promise<readonly string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

function refuseWhy(url: string, why: string): ApiError {
  return new ApiError(
    `refusing to download the batch partition link ${describeUrl(url)}: ${why}`,
    { operation: "partition download", retryable: false },
    "DOWNLOAD_REFUSED",
  );
}

/** The refusal of a link whose host resolved to a forbidden address when the download connected. */
export function refuseLink(url: string, found: ForbiddenAddressError): ApiError {
  return refuseWhy(url, `when connecting, ${found.message}`);
}

/**
 * @example
 * const check = createDownloadPolicy({ baseUrl: "https://mdq.example.com", allowedHosts: ["*.amazonaws.com"] });
 * await check("https://bucket.s3.amazonaws.com/part-0?X-Amz-Signature=..."); // throws ApiError DOWNLOAD_REFUSED otherwise
 */
export function createDownloadPolicy(options: DownloadPolicyOptions): (url: string) => Promise<void> {
  const httpAllowed = options.baseUrl.toLowerCase().startsWith("http:");
  const resolve = options.resolve ?? resolveAll;
  const refuse = refuseWhy;
  return async (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse(url, "it is not a URL");
    }
    const scheme = parsed.protocol.replace(/:$/, "");
    if (scheme !== "https" && !(scheme === "http" && httpAllowed)) {
      throw refuse(url, `scheme ${scheme} is not allowed (https only; http only when base_url is http)`);
    }
    if (parsed.username !== "" || parsed.password !== "") throw refuse(url, "it carries credentials");
    const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (options.allowedHosts !== undefined && !hostAllowed(host, options.allowedHosts)) {
      throw refuse(url, `host ${host} is not in service.download_hosts`);
    }
    const addresses = isIP(host) === 0 ? await resolve(host).catch(() => []) : [host];
    const bad = addresses.find(isForbiddenAddress);
    if (bad !== undefined) {
      throw refuse(url, `address ${bad} is link-local, a metadata address or unspecified`);
    }
  };
}

/** A connection to a download host resolved to a forbidden address after the link was checked. */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolved to ${address}, which is link-local, a metadata address or unspecified`);
  }
}

/**
 * The name resolution of the download connections: the addresses the socket will really use are
 * checked again, so a name that resolved to a public address when the link was checked and to the
 * metadata address a moment later (DNS rebinding) never gets a connection.
 */
export function guardedLookup(resolve: LookupFunction = lookupCallback as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, address, family) => {
      if (error !== null) {
        callback(error, address, family);
        return;
      }
      const found = typeof address === "string" ? [address] : address.map((entry) => entry.address);
      const bad = found.find(isForbiddenAddress);
      if (bad === undefined) callback(null, address, family);
      else
        callback(
          Object.assign(new ForbiddenAddressError(hostname, bad), { code: "EFORBIDDENADDRESS" }),
          address,
          family,
        );
    });
  };
}
