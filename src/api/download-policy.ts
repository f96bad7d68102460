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

/** The 8 groups of an IPv6 address (a trailing dotted IPv4 part and a zone included); undefined if not IPv6. */
function ipv6Groups(address: string): number[] | undefined {
  const bare = address.replace(/%.*$/, "");
  if (isIP(bare) !== 6) return undefined;
  // A trailing dotted IPv4 part (::ffff:169.254.169.254) becomes the two groups it stands for.
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex =
    dotted === null
      ? bare
      : `${dotted[1]}${((Number(dotted[2]) << 8) | Number(dotted[3])).toString(16)}:${((Number(dotted[4]) << 8) | Number(dotted[5])).toString(16)}`;
  const [head = "", tail] = hex.split("::");
  const parse = (part: string): number[] => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

type Groups = [number, number, number, number, number, number, number, number];

const ipv4Of = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries and that a connection may reach: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks), NAT64
 * with the well-known prefix (64:ff9b::/96, RFC 6052) or the local-use prefix (64:ff9b:1::/48,
 * RFC 8215), and 6to4 (2002:AABB:CCDD::/16). Each is written in hex or dotted form alike.
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g === undefined) return undefined;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g.map((group) => group & 0xffff) as Groups;
  const zeroTo = (end: number): boolean => g.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return ipv4Of(g6, g7);
  // ::1 is the IPv6 loopback and :: the unspecified address, not IPv4-compatible addresses.
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7);
  // RFC 6052's /48 layout: the IPv4 address around bits 64-71 (the u octet, always zero).
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return ipv4Of(g3, ((g4 & 255) << 8) | (g5 >> 8));
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return undefined;
}

/** An address as a refusal shows it: with the IPv4 address it carries, if any. */
function shown(address: string): string {
  const ipv4 = embeddedIpv4(address);
  return ipv4 === undefined ? address : `${address} (carrying ${ipv4})`;
}

/** An IPv6 address that carries an IPv4 address is judged as that IPv4 address as well. */
function isForbiddenAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ""));
  if (family === 0) return false;
  if (family === 4) return FORBIDDEN.check(address, "ipv4");
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== undefined && FORBIDDEN.check(ipv4, "ipv4")) return true;
  return FORBIDDEN.check(address.replace(/%.*$/, ""), "ipv6");
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
  return async (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuseWhy(url, "it is not a URL");
    }
    const scheme = parsed.protocol.replace(/:$/, "");
    if (scheme !== "https" && !(scheme === "http" && httpAllowed)) {
      throw refuseWhy(url, `scheme ${scheme} is not allowed (https only; http only when base_url is http)`);
    }
    if (parsed.username !== "" || parsed.password !== "") throw refuseWhy(url, "it carries credentials");
    const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (options.allowedHosts !== undefined && !hostAllowed(host, options.allowedHosts)) {
      throw refuseWhy(url, `host ${host} is not in service.download_hosts`);
    }
    const addresses = isIP(host) === 0 ? await resolve(host).catch(() => []) : [host];
    const bad = addresses.find(isForbiddenAddress);
    if (bad !== undefined) {
      throw refuseWhy(url, `address ${shown(bad)} is link-local, a metadata address or unspecified`);
    }
  };
}

/** A connection to a download host resolved to a forbidden address after the link was checked. */
export class ForbiddenAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolved to ${shown(address)}, which is link-local, a metadata address or unspecified`);
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
