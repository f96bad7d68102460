import { describe, expect, it } from "vitest";
import type { LookupFunction } from "node:net";
import { createDownloadPolicy, embeddedIpv4, guardedLookup } from "./download-policy.js";

const resolveTo = (addresses: string[]) => async (): Promise<readonly string[]> => addresses;

async function refusal(check: (url: string) => Promise<void>, url: string): Promise<string> {
  const error = await check(url).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect((error as { code?: string } | undefined)?.code).toBe("DOWNLOAD_REFUSED");
  return String(error);
}

describe("createDownloadPolicy", () => {
  const https = createDownloadPolicy({
    baseUrl: "https://mdq.example.com",
    resolve: resolveTo(["52.1.2.3"]),
  });

  it("follows https links to public addresses", async () => {
    await expect(
      https("https://bucket.s3.amazonaws.com/part-0?X-Amz-Signature=abc"),
    ).resolves.toBeUndefined();
  });

  it("refuses http unless the service itself is reached over http", async () => {
    expect(await refusal(https, "http://bucket.s3.amazonaws.com/part-0")).toContain("scheme http");
    expect(await refusal(https, "file:///etc/passwd")).toContain("scheme file");
    const local = createDownloadPolicy({
      baseUrl: "http://127.0.0.1:8080",
      resolve: resolveTo(["127.0.0.1"]),
    });
    await expect(local("http://127.0.0.1:8080/files/part-0")).resolves.toBeUndefined();
  });

  it("refuses link-local, metadata and unspecified addresses, literal or resolved", async () => {
    for (const url of [
      "https://169.254.169.254/latest/meta-data/",
      "https://169.254.10.1/x",
      "https://[fe80::1]/x",
      "https://[fd00:ec2::254]/x",
      "https://0.0.0.0/x",
      "https://[::]/x",
      "https://[::ffff:169.254.169.254]/x",
      "https://2852039166/x",
    ]) {
      expect(await refusal(https, url)).toMatch(/link-local|metadata|unspecified/);
    }
    const rebinding = createDownloadPolicy({
      baseUrl: "https://mdq.example.com",
      resolve: resolveTo(["52.1.2.3", "169.254.169.254"]),
    });
    expect(await refusal(rebinding, "https://innocent.example.net/part-0")).toContain("169.254.169.254");
  });

  it("keeps to service.download_hosts when given, and never shows the signature", async () => {
    const listed = createDownloadPolicy({
      baseUrl: "https://mdq.example.com",
      allowedHosts: ["*.amazonaws.com", "files.example.com"],
      resolve: resolveTo(["52.1.2.3"]),
    });
    await expect(listed("https://bucket.s3.amazonaws.com/p")).resolves.toBeUndefined();
    await expect(listed("https://files.example.com/p")).resolves.toBeUndefined();
    const message = await refusal(listed, "https://evil.example.org/p?X-Amz-Signature=topsecret");
    expect(message).toContain("download_hosts");
    expect(message).not.toContain("topsecret");
  });
});

/** Link-local and metadata addresses written as IPv6 forms that carry an IPv4 address. */
const CARRIED = [
  "::ffff:169.254.169.254",
  "::ffff:a9fe:a9fe",
  "0:0:0:0:0:ffff:a9fe:a9fe",
  "::a9fe:a9fe",
  "::169.254.169.254",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b::169.254.169.254",
  "64:ff9b:1:a9fe:a9:fe00::",
  "2002:a9fe:a9fe::1",
  "::ffff:169.254.1.1",
  "64:ff9b::a9fe:101",
  "::ffff:0.0.0.0",
  "64:ff9b::0:0",
];

describe("IPv6 forms of forbidden IPv4 addresses", () => {
  const https = createDownloadPolicy({
    baseUrl: "https://mdq.example.com",
    resolve: resolveTo(["52.1.2.3"]),
  });

  it("reads the IPv4 address each form carries", () => {
    expect(embeddedIpv4("::ffff:a9fe:a9fe")).toBe("169.254.169.254");
    expect(embeddedIpv4("::a9fe:a9fe")).toBe("169.254.169.254");
    expect(embeddedIpv4("64:ff9b::a9fe:a9fe")).toBe("169.254.169.254");
    expect(embeddedIpv4("64:ff9b:1:a9fe:a9:fe00::")).toBe("169.254.169.254");
    expect(embeddedIpv4("2002:a9fe:a9fe::1")).toBe("169.254.169.254");
    expect(embeddedIpv4("fe80::1%eth0")).toBeUndefined();
    expect(embeddedIpv4("::1")).toBeUndefined();
    expect(embeddedIpv4("2600:1f18::1")).toBeUndefined();
  });

  it.each(CARRIED)("refuses [%s] as a literal link", async (address) => {
    const message = await refusal(https, `https://[${address}]/latest/meta-data/`);
    expect(message).toMatch(/carrying (169\.254|0\.0)\.\d+\.\d+\) is link-local/);
  });

  it.each(CARRIED)("refuses a name that resolves to %s", async (address) => {
    const resolved = createDownloadPolicy({
      baseUrl: "https://mdq.example.com",
      resolve: resolveTo([address]),
    });
    expect(await refusal(resolved, "https://innocent.example.net/part-0")).toContain(address);
  });

  it.each(CARRIED)("gets no connection when a download resolves to %s as it connects", async (address) => {
    const resolving: LookupFunction = (_hostname, _options, callback) =>
      callback(null, [{ address, family: 6 }]);
    const error = await new Promise<unknown>((resolve) =>
      guardedLookup(resolving)("rebind.example.net", { all: true }, (caught) => resolve(caught)),
    );
    expect(String(error)).toContain(`rebind.example.net resolved to ${address}`);
  });

  it("still follows public IPv6 links, IPv4-mapped public addresses, and a local emulator on ::1", async () => {
    await expect(https("https://[2600:1f18::1]/p")).resolves.toBeUndefined();
    await expect(https("https://[::ffff:52.1.2.3]/p")).resolves.toBeUndefined();
    await expect(https("https://[64:ff9b::3401:203]/p")).resolves.toBeUndefined();
    const local = createDownloadPolicy({ baseUrl: "http://[::1]:8080", resolve: resolveTo(["::1"]) });
    await expect(local("http://[::1]:8080/files/part-0")).resolves.toBeUndefined();
  });
});
