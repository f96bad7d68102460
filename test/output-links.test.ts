// Nothing written, renamed or deleted outside the output root: real symbolic links planted in the
// output (a partition folder, the hidden state folder, a temporary name) are refused with an error
// naming them, and a destination that cannot be written fails at once instead of spinning.
import { mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { runCli, spawnCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 9, density: 20 }, { preset: false }).extend<{ pipeline: string }>({
  pipeline: [
    async ({ workspace }, use) => {
      await use(
        await writeJobsPipeline(workspace.dir, {
          name: "links",
          hours: 2,
          limits: { max_retries_per_slice: 0 },
        }),
      );
    },
    { scope: "file" },
  ],
});

const PARTITION = "dt=2026-11-10";

function env(service: TestService, out: string): Record<string, string> {
  return { ...service.env, OUT: out };
}

/** Every file under `folder` with its content, to show nothing outside the root changed. */
async function snapshot(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(folder, { recursive: true })) {
    const content = await readFile(join(folder, name)).catch(() => undefined);
    if (content !== undefined) files[name] = content.toString("base64");
  }
  return files;
}

describe("links in the output root", () => {
  it("refuses a partition folder that is a link, writing nothing through it", async ({
    service,
    workspace,
    pipeline,
  }) => {
    const out = join(workspace.dir, "partition");
    const outside = join(workspace.dir, "partition-outside");
    await mkdir(out, { recursive: true });
    await mkdir(outside);
    await symlink(outside, join(out, PARTITION));
    const result = await runCli(["run", pipeline], { env: env(service, out) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(out, PARTITION)} is a symbolic link inside the output`);
    expect(await readdir(outside)).toEqual([]);
  }, 30_000);

  it("refuses a hidden state folder that is a link, before any state or lock goes through it", async ({
    service,
    workspace,
    pipeline,
  }) => {
    const out = join(workspace.dir, "state");
    const outside = join(workspace.dir, "state-outside");
    await mkdir(out, { recursive: true });
    await mkdir(outside);
    await symlink(outside, join(out, "_mdq-export"));
    const result = await runCli(["run", pipeline], { env: env(service, out) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`${join(out, "_mdq-export")} is a symbolic link inside the output`);
    expect(await readdir(outside)).toEqual([]);
  }, 30_000);

  it("a --force rerun neither deletes nor overwrites files a linked folder or a linked temporary name points at", async ({
    service,
    workspace,
    pipeline,
  }) => {
    const out = join(workspace.dir, "force");
    const first = await runCli(["run", pipeline], { env: env(service, out) });
    expect(first.code, first.stderr).toBe(0);
    // The partition folder now lives outside the root, reached through a link, and a temporary name
    // of the kind a killed run leaves points at another file outside.
    const outside = join(workspace.dir, "force-outside");
    await rename(join(out, PARTITION), outside);
    await symlink(outside, join(out, PARTITION));
    await writeFile(join(workspace.dir, "precious.txt"), "keep me");
    await symlink(join(workspace.dir, "precious.txt"), join(out, `.part-x.ndjson.tmp-0123456789ab`));
    const before = await snapshot(outside);
    expect(Object.keys(before).length).toBeGreaterThan(0);

    const rerun = await runCli(["run", pipeline, "--force"], { env: env(service, out) });
    expect(rerun.code).not.toBe(0);
    expect(rerun.stderr).toContain("is a symbolic link inside the output");
    expect(await snapshot(outside)).toEqual(before);
    expect(await readFile(join(workspace.dir, "precious.txt"), "utf8")).toBe("keep me");
  }, 30_000);
});

describe("a destination that cannot be written", () => {
  it("fails at once with an error naming it (not a spin under /proc), as a real process", async ({
    service,
    pipeline,
  }) => {
    const cli = spawnCli(["run", pipeline], env(service, "/proc/mdq-export-test/out"));
    const code = await cli.exited;
    expect(code).toBe(1);
    expect(cli.stderr()).toContain("cannot create the folder /proc/mdq-export-test/out");
    expect(cli.stderr()).toContain("choose a destination this user can write");
  }, 30_000);
});
