import { describe, expect, it } from "vitest";
import { describeErrorBody } from "./http-status-error.js";
import { describeUrl, escapeControl, redactText, urlCredentials } from "./redact.js";

const SECRET = 'p@ss word+/=&"\\é-42';

describe("redactText", () => {
  it("masks a secret raw, URL-encoded, form-encoded and JSON-escaped", () => {
    const form = new URLSearchParams({ client_secret: SECRET }).toString();
    const texts = [
      SECRET,
      encodeURIComponent(SECRET),
      form,
      JSON.stringify({ secret: SECRET }),
      `received ${encodeURIComponent(SECRET).replace(/%20/g, "+")}`,
    ];
    for (const text of texts) {
      const out = redactText(text, [SECRET]);
      expect(out).toContain("[redacted]");
      for (const part of ["p@ss", "ss word", "ss+word", "ss%20word", "%40ss"])
        expect(out).not.toContain(part);
    }
  });

  it("redacts before cutting: a secret straddling the 300-character cut leaks no part", () => {
    const secret = "abcdefghijklmnopqrstuvwxyz0123456789";
    const body = JSON.stringify({ detail: `${"x".repeat(285)}${secret} tail` });
    const shown = describeErrorBody(body, [secret]);
    for (let i = 0; i + 6 <= secret.length; i++) expect(shown).not.toContain(secret.slice(i, i + 6));
  });

  it("removes userinfo from URLs, in text and in described URLs", () => {
    expect(redactText("connecting to https://user:hunter2@mdq.example.com/v3")).not.toContain("hunter2");
    expect(describeUrl("https://user:hunter2@mdq.example.com/v3/jobs")).toBe(
      "https://mdq.example.com/v3/jobs",
    );
  });

  it("strips SigV4 credentials, signatures and session tokens, as S3 errors echo them", () => {
    const message =
      "SignatureDoesNotMatch: Authorization: AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20261122/us-east-1/s3/aws4_request, " +
      "SignedHeaders=host;x-amz-date, Signature=deadbeefcafe x-amz-security-token: FwoGZXIvYXdzEXAMPLETOKEN " +
      "<CanonicalRequest>PUT /b/k\nx-amz-security-token:FwoGZXIvYXdzEXAMPLETOKEN\n</CanonicalRequest>";
    const out = redactText(message);
    for (const leak of ["AKIAEXAMPLE", "deadbeefcafe", "FwoGZXIvYXdzEXAMPLETOKEN"])
      expect(out).not.toContain(leak);
  });
});

describe("credentials of a URL the user gives", () => {
  const url = "https://ci-bot:p%40ss%2Fw0rd-42@push.example:9091/base";
  const basic = Buffer.from("ci-bot:p@ss/w0rd-42").toString("base64");

  it("are masked plain, percent-encoded, as the Basic header's base64 and bare base64", () => {
    const texts = [
      `echo ${url}`,
      `echo ${encodeURIComponent(url)}`,
      `Authorization: Basic ${basic}`,
      `{"authorization":"Basic ${basic}"}`,
      `token=${basic} and ${basic.replace(/=+$/, "")}`,
      "user ci-bot:p@ss/w0rd-42 password p@ss/w0rd-42",
    ];
    for (const text of texts) {
      const out = redactText(text, urlCredentials(url));
      expect(out).toContain("[redacted]");
      for (const leak of [basic, "p@ss", "p%40ss", "w0rd-42"]) expect(out).not.toContain(leak);
    }
  });

  it("Authorization and Basic values are masked without knowing the secret", () => {
    const out = redactText(
      `Authorization: Basic ${basic}\nproxy-authorization=Digest abc123def\nsent Basic ${basic}`,
    );
    expect(out).not.toContain(basic);
    expect(out).not.toContain("abc123def");
    expect(redactText("via http%3A%2F%2Fci-bot%3Ahunter2%40host%2Fpath")).toBe(
      "via http%3A%2F%2F[redacted]%40host%2Fpath",
    );
  });

  it("a URL without userinfo has no credentials", () => {
    expect(urlCredentials("https://push.example:9091/")).toEqual([]);
    expect(urlCredentials("not a url")).toEqual([]);
  });
});

describe("escapeControl", () => {
  it("makes a forged line or terminal escape impossible", () => {
    const forged = "busy\r\u001b[2KRun complete.\nerror: none\u2028";
    const out = escapeControl(forged);
    for (const raw of ["\r", "\n", "\u001b", "\u2028"]) {
      expect(out).not.toContain(raw);
      expect(describeErrorBody(JSON.stringify({ detail: forged }), [])).not.toContain(raw);
    }
  });

  it("writes CR, LF and tab short and every other control as its \\u escape", () => {
    expect(escapeControl("a\r\n\tb\u001b\u2028c")).toBe("a\\r\\n\\tb\\u001b\\u2028c");
  });
});
