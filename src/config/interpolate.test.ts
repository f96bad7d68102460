// `${VAR}` with the VAR_FILE fallback that Kubernetes and Docker secrets use: the file's text stands in
// for an unset variable, and a file that cannot be used is refused naming the variable, never its content.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interpolate, MAX_SECRET_FILE_BYTES } from "./interpolate.js";
import type { Env } from "./interpolate.js";
import { parseYamlSource, toData } from "./yaml-source.js";

const SECRET = "s3cr3t-from-a-mounted-file";
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-interpolate-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(text: string, env: Env): { data: unknown; messages: string[] } {
  const source = parseYamlSource(text, "p.yaml");
  const result = interpolate(source, env);
  return { data: toData(source), messages: result.issues.map((issue) => issue.message) };
}

async function secretFile(name: string, content: string | Buffer): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, content);
  return file;
}

describe("${VAR} from VAR_FILE", () => {
  it("reads the file named by VAR_FILE when VAR is unset, without its trailing line break", async () => {
    const file = await secretFile("client-secret", `${SECRET}\n`);
    const { data, messages } = run("secret: ${MDQ_CLIENT_SECRET}\n", { MDQ_CLIENT_SECRET_FILE: file });
    expect(messages).toEqual([]);
    expect(data).toEqual({ secret: SECRET });
  });

  it("keeps the file's inner line breaks and takes CRLF endings off once", async () => {
    const file = await secretFile("multi", "line one\nline two\r\n");
    expect(run("v: ${KEY}\n", { KEY_FILE: file }).data).toEqual({ v: "line one\nline two" });
  });

  it("prefers the variable itself when both are set", async () => {
    const file = await secretFile("ignored", "from-file");
    expect(run("v: ${KEY}\n", { KEY: "from-env", KEY_FILE: file }).data).toEqual({ v: "from-env" });
  });

  it("retypes a plain scalar from a file like one from the environment", async () => {
    const file = await secretFile("size", "500\n");
    const source = parseYamlSource("page_size: ${PAGE_SIZE}\n", "p.yaml");
    const result = interpolate(source, { PAGE_SIZE_FILE: file });
    expect(result.retypable.size).toBe(1);
    expect(toData(source)).toEqual({ page_size: "500" });
  });

  it("refuses a missing file naming the variable and the path, even with a default", () => {
    const file = join(dir, "absent");
    for (const text of ["v: ${KEY}\n", "v: ${KEY:-fallback}\n"]) {
      expect(run(text, { KEY_FILE: file }).messages).toEqual([
        `environment variable KEY is not set and KEY_FILE=${file} cannot be read (ENOENT)`,
      ]);
    }
  });

  it("refuses a directory and an oversized file without printing any content", async () => {
    const sub = join(dir, "a-directory");
    await mkdir(sub);
    expect(run("v: ${KEY}\n", { KEY_FILE: sub }).messages).toEqual([
      `environment variable KEY is not set and KEY_FILE=${sub} is not a file`,
    ]);
    const big = await secretFile("big", Buffer.alloc(MAX_SECRET_FILE_BYTES + 1, "q"));
    const [message = ""] = run("v: ${KEY}\n", { KEY_FILE: big }).messages;
    expect(message).toMatch(/KEY_FILE=.*big is 65537 bytes; a secret file holds at most 65536/);
    expect(message).not.toContain("q".repeat(16));
  });

  it("refuses a path through a file (ENOTDIR) without printing the file's content", async () => {
    const file = join(await secretFile("plain", SECRET), "child");
    const [message = ""] = run("v: ${KEY}\n", { KEY_FILE: file }).messages;
    expect(message).toBe(`environment variable KEY is not set and KEY_FILE=${file} cannot be read (ENOTDIR)`);
    expect(message).not.toContain(SECRET);
  });

  it("treats an empty file as unset: the default applies, else an error naming the file", async () => {
    const file = await secretFile("empty", "\n");
    expect(run("v: ${KEY:-fallback}\n", { KEY_FILE: file }).data).toEqual({ v: "fallback" });
    expect(run("v: ${KEY}\n", { KEY_FILE: file }).messages).toEqual([
      `environment variable KEY is not set and KEY_FILE=${file} is empty`,
    ]);
  });

  it("names VAR_FILE when neither VAR nor VAR_FILE is set, and a default only for what is not a secret", () => {
    expect(run("v: ${KEY}\n", {}).messages).toEqual([
      "environment variable KEY is not set; set it, set KEY_FILE to a file that holds the value, or write ${KEY:-default}",
    ]);
    for (const key of ["client_secret", "password", "session_token"]) {
      expect(run(`${key}: \${SECRET}\n`, {}).messages).toEqual([
        "environment variable SECRET is not set; set it, or set SECRET_FILE to the path of a file that holds the secret (a mounted Kubernetes or Docker secret); a secret has no default",
      ]);
    }
  });
});
