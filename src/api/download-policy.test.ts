import { describe, expect, it } from "vitest";
import { createDownloadPolicy } from "./download-policy.js";

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
