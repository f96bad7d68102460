// A destination with no space left: a run stops resumable (exit 75) naming the output and what to do,
// commits nothing partial, and the same command resumes once there is room. The full file system is a
// small tmpfs when the test may mount one; an S3-compatible store answers "storage full" over HTTP.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { SinkError } from "../src/errors.js";
import type { RunInfo } from "../src/core/contracts.js";
import { createS3Store } from "../src/sinks/s3/s3-store.js";
import { s3OptionsSchema } from "../src/sinks/s3/s3-options.js";
import { outputFull, outputFullCode } from "../src/sinks/output-full.js";
import {
  CLI_ENTRY,
  REPO_ROOT,
  dataFiles,
  listTree,
  readNdjsonRecords,
  removeDir,
  spawnCli,
  writePipeline,
  SERVICE_FROM_ENV,
} from "./support/cli-harness.js";
import { jobsSource } from "./support/jobs-pipeline.js";
import type { TestService } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 5, density: 40 }, { preset: false });

/** Mounts a tmpfs of `size` at `dir`; false when this process may not mount (not root, no CAP_SYS_ADMIN). */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function jobsPipeline(dir: string, out: string, file = "pipeline.yaml"): Promise<string> {
  return writePipeline(
    dir,
    {
      name: "output-full",
      service: SERVICE_FROM_ENV,
      source: jobsSource("2026-11-10T00:00:00Z", "2026-11-10T04:00:00Z"),
      sinks: [{ format: "ndjson", to: out, path: "part-{slice}-{seq}.ndjson" }],
      limits: { concurrency: 1 },
    },
    file,
  );
}

async function runToEnd(
  service: TestService,
  pipeline: string,
): Promise<{ code: number | NodeJS.Signals; stderr: string }> {
  const cli = spawnCli(["run", pipeline], service.env);
  const code = await cli.exited;
  return { code, stderr: cli.stderr() };
}

/** An S3-compatible endpoint whose drives are full: every request is answered as MinIO does then. */
async function startFullS3(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(507, { "content-type": "application/xml" });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code>' +
          "<Message>Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.</Message></Error>",
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a full file system at the output", () => {
  it("stops with exit 75 naming the output, keeps only whole committed files, and resumes once there is room", async ({
    service,
    workspace,
  }) => {
    const dir = await workspace.folder("output-full");
    const out = join(dir, "out");
    await mkdir(out);
    const pipeline = await jobsPipeline(dir, out);
    // The whole export for comparison, on a file system with room.
    const roomy = join(dir, "roomy");
    const reference = await runToEnd(service, await jobsPipeline(dir, roomy, "roomy.yaml"));
    expect(reference.code, reference.stderr).toBe(0);
    const expected = await readNdjsonRecords(roomy);
    await removeDir(roomy);

    // About two of the four slices fit in 160 KiB.
    const mounted = mountTmpfs(out, "160k");
    const s3 = mounted ? undefined : await startFullS3();
    try {
      const target = mounted ? pipeline : await fullS3Pipeline(dir, s3?.endpoint ?? "");
      const stopped = await runToEnd(service, target);
      expect(stopped.code, stopped.stderr).toBe(75);
      const shownOutput = mounted ? out : "s3://exports";
      expect(stopped.stderr).toMatch(mounted ? /\(ENOSPC\): no space is left/ : /\(XMinioStorageFull\)/);
      expect(stopped.stderr).toContain(`at the output ${shownOutput}; free space there`);
      expect(stopped.stderr).toContain(
        "run the same command again: it resumes from the last committed slice",
      );
      expect(stopped.stderr).not.toContain("    at ");
      if (!mounted) return;

      // Every file under a final name is whole: each line is a record the full export also has.
      const written = await readNdjsonRecords(out);
      const byId = new Map(expected.map((row) => [JSON.stringify(row), row]));
      for (const row of written) expect(byId.has(JSON.stringify(row))).toBe(true);
      for (const path of dataFiles(await listTree(out))) {
        if (!path.endsWith(".ndjson")) continue;
        const text = await readFile(join(out, path), "utf8");
        expect(text.endsWith("\n"), path).toBe(true);
      }

      execFileSync("mount", ["-o", "remount,size=4m", out]);
      const resumed = await runToEnd(service, pipeline);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/"skipped":[12]/);
      const rows = await readNdjsonRecords(out);
      expect(rows.map((row) => JSON.stringify(row)).sort()).toEqual(
        expected.map((row) => JSON.stringify(row)).sort(),
      );
    } finally {
      if (mounted) execFileSync("umount", [out]);
      await s3?.close();
    }
  }, 120_000);
});

async function fullS3Pipeline(dir: string, endpoint: string): Promise<string> {
  process.env.AWS_ACCESS_KEY_ID ??= "test";
  process.env.AWS_SECRET_ACCESS_KEY ??= "test";
  return writePipeline(dir, {
    name: "output-full-s3",
    service: SERVICE_FROM_ENV,
    source: jobsSource("2026-11-10T00:00:00Z", "2026-11-10T01:00:00Z"),
    sinks: [
      {
        format: "ndjson",
        to: "s3://exports/full",
        path: "part-{slice}-{seq}.ndjson",
        s3: { region: "us-east-1", endpoint, force_path_style: true },
      },
    ],
  });
}

describe("an S3-compatible store that is full", () => {
  it("answers OUTPUT_FULL naming the bucket, over real HTTP", async () => {
    const full = await startFullS3();
    process.env.AWS_ACCESS_KEY_ID ??= "test";
    process.env.AWS_SECRET_ACCESS_KEY ??= "test";
    const run: RunInfo = {
      pipelineName: "full",
      runId: "run-full",
      startedAt: new Date("2026-11-21T06:00:00Z"),
    };
    const options = s3OptionsSchema.parse({
      region: "us-east-1",
      endpoint: full.endpoint,
      force_path_style: true,
    });
    const store = createS3Store("s3://exports/prefix", options, { run });
    try {
      const error = await store.putObject("_SUCCESS", "").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SinkError);
      expect((error as SinkError).code).toBe("OUTPUT_FULL");
      expect((error as SinkError).message).toContain(
        "s3://exports/prefix/_SUCCESS failed (XMinioStorageFull)",
      );
      expect((error as SinkError).message).toContain("at the output s3://exports; free space there");
    } finally {
      await store.close();
      await full.close();
    }
  });
});

describe("the errno codes of a full destination", () => {
  it("reads ENOSPC and EDQUOT anywhere in the cause chain, and names the quota for EDQUOT", () => {
    const quota = Object.assign(new Error("EDQUOT: disk quota exceeded, write"), { code: "EDQUOT" });
    const wrapped = new Error("writing failed", { cause: quota });
    expect(outputFullCode(wrapped)).toBe("EDQUOT");
    expect(outputFullCode(Object.assign(new Error("x"), { code: "EACCES" }))).toBeUndefined();
    const error = outputFull("/data/out", "writing /data/out/a.ndjson", "EDQUOT", quota);
    expect(error.code).toBe("OUTPUT_FULL");
    expect(error.message).toBe(
      "writing /data/out/a.ndjson failed (EDQUOT): the disk quota of this user is used up at the output /data/out; " +
        "free space there (or raise the quota) and run the same command again: it resumes from the last committed slice",
    );
  });
});

describe("stdout redirected to a full device", () => {
  /** Runs the CLI with stdout on /dev/full, whose every write answers ENOSPC. */
  async function toDevFull(
    service: TestService,
    argv: string[],
  ): Promise<{ code: number | null; stderr: string }> {
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, [CLI_ENTRY, ...argv], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? "", ...service.env },
        stdio: ["ignore", full, "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      return { code, stderr };
    } finally {
      closeSync(full);
    }
  }

  it("fields stops with exit 75 and the fix instead of a stack trace", async ({ service }) => {
    const result = await toDevFull(service, ["fields", "--kind", "jobs"]);
    expect(result.code).toBe(75);
    expect(result.stderr).toContain(
      "error: writing to stdout failed (ENOSPC): no space is left where stdout goes (the file it is redirected to); free space there and run the same command again",
    );
    expect(result.stderr).not.toMatch(/\n\s+at |Node\.js v/);
  });

  it("a run to stdout stops with exit 75, saying why and that a stdout-only pipeline starts over", async ({
    service,
    workspace,
  }) => {
    const dir = await workspace.folder("stdout-full");
    const pipeline = await writePipeline(dir, {
      name: "stdout-full",
      service: SERVICE_FROM_ENV,
      source: jobsSource("2026-11-10T00:00:00Z", "2026-11-10T04:00:00Z"),
      sinks: [{ format: "ndjson", to: "-" }],
    });
    const result = await toDevFull(service, ["run", pipeline]);
    expect(result.code).toBe(75);
    expect(result.stderr).toContain("writing to stdout failed (ENOSPC)");
    expect(result.stderr).toContain("A pipeline that writes only to stdout keeps no state");
    expect(result.stderr).not.toMatch(/\n\s+at |Node\.js v/);
  });
});
