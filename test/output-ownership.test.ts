// Who owns an output, and what its fingerprint covers. A pipeline B pointed at pipeline A's output
// used to read as "the pipeline changed … rerun with --force", and after --force B wrote into A's
// output with the state and manifest still naming A. Now B is refused (exit 2, OUTPUT_OWNED, naming
// A), --force included, and nothing of A's output changes. And an output moved elsewhere used to read
// as "changed" too, because the destination's location was hashed into the fingerprint: now it
// resumes, and a state an earlier version wrote (its fingerprint holding the location) still opens.
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { defaultComponents } from "../src/components/environment.js";
import { loadPipeline } from "../src/config/load-pipeline.js";
import { fingerprintOf } from "../src/pipeline/run/fingerprint.js";
import { sinkIdentity } from "../src/sinks/open-output-store.js";
import { runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 9, density: 4 }, { preset: false });

const env = (
  service: TestService,
  out: string,
  more: Record<string, string> = {},
): Record<string, string> => ({
  ...service.env,
  OUT: out,
  ...more,
});

/** Every file under `folder` with its content (the lock a refused run took and released aside). */
async function contents(folder: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(folder, { recursive: true })) {
    if (name.endsWith("lock.json")) continue;
    const content = await readFile(join(folder, name)).catch(() => undefined);
    if (content !== undefined) files[name] = content.toString("base64");
  }
  return files;
}

const readJson = async (path: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;

describe("a pipeline on another pipeline's output", () => {
  it("is refused with exit 2 and OUTPUT_OWNED naming the owner, --force included, by run and plan; the owner's output is untouched", async ({
    service,
    workspace,
  }) => {
    const out = await workspace.folder("owned");
    const a = await writeJobsPipeline(await workspace.folder("a"), { name: "jobs-a", hours: 2 });
    expect((await runCli(["run", a], { env: env(service, out) })).code).toBe(0);
    const before = await contents(out);
    // B differs from A by its name alone: the same query would write the same files.
    const b = await writeJobsPipeline(await workspace.folder("b"), { name: "jobs-b", hours: 2 });
    for (const argv of [
      ["run", b, "--debug"],
      ["run", b, "--force", "--debug"],
    ]) {
      const result = await runCli(argv, { env: env(service, out) });
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toContain("[OUTPUT_OWNED]");
      expect(result.stderr, argv.join(" ")).toContain(
        `the output in ${out} belongs to pipeline "jobs-a" (its state and manifest name it), not to "jobs-b"`,
      );
      expect(result.stderr).not.toContain("the pipeline changed");
    }
    // plan says so after the plan, as of any state a run would refuse; with --force too.
    for (const argv of [
      ["plan", b],
      ["plan", b, "--force"],
    ]) {
      const result = await runCli(argv, { env: env(service, out) });
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stdout, argv.join(" ")).toContain(
        `A run would stop: the output in ${out} belongs to pipeline "jobs-a"`,
      );
    }
    expect(await contents(out)).toEqual(before);
    expect((await readJson(join(out, "_mdq-export", "state.json"))).pipeline).toBe("jobs-a");
    expect((await readJson(join(out, "_manifest.json"))).pipeline).toBe("jobs-a");
    // A still runs there as before.
    const again = await runCli(["run", a], { env: env(service, out) });
    expect(again.code, again.stderr).toBe(0);
  });

  it("is refused when only its second sink points at the other pipeline's output, before anything is written there or in its own", async ({
    service,
    workspace,
  }) => {
    const out = await workspace.folder("owned-second");
    const a = await writeJobsPipeline(await workspace.folder("a2"), { name: "jobs-a", hours: 1 });
    expect((await runCli(["run", a], { env: env(service, out) })).code).toBe(0);
    const before = await contents(out);
    const own = await workspace.folder("own");
    const dir = await workspace.folder("b2");
    const b = await writeJobsPipeline(dir, { name: "jobs-b", hours: 1, to: "${OWN}" });
    // A second sink, into A's output, after B's own first sink (which holds B's state).
    const text = await readFile(b, "utf8");
    expect(text.trimEnd().endsWith(".ndjson")).toBe(true);
    await writeFile(
      b,
      `${text.trimEnd()}\n  - format: ndjson\n    to: \${OUT}\n    path: "dt={date}/part-{slice}-{seq}.ndjson"\n`,
    );
    const result = await runCli(["run", b, "--debug"], { env: env(service, out, { OWN: own }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the output in ${out} belongs to pipeline "jobs-a"`);
    expect(await contents(out)).toEqual(before);
    expect(await contents(own)).toEqual({});
  });
});

describe("an output moved elsewhere", () => {
  it("is the same export: the run resumes there (committed slices skipped), not 'changed'", async ({
    service,
    workspace,
  }) => {
    const first = join(await workspace.folder("moved"), "before");
    const second = join(await workspace.folder("moved"), "after");
    const pipeline = await writeJobsPipeline(await workspace.folder("p"), { name: "jobs-moved", hours: 2 });
    expect((await runCli(["run", pipeline], { env: env(service, first) })).code).toBe(0);
    await rename(first, second);
    const result = await runCli(["run", pipeline], { env: env(service, second) });
    expect(result.stderr).not.toContain("the pipeline changed");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("0 slices exported, 2 already done");
  });
});

describe("a state an earlier version wrote", () => {
  /**
   * The fingerprint the version before this one wrote: every sink as `sinkIdentity` gives it, its
   * `to` (the location) included, beside the name, the query without its window and the transforms.
   */
  async function earlierFingerprint(file: string, out: string, service: TestService): Promise<string> {
    const components = defaultComponents();
    const pipeline = await loadPipeline(file, { env: env(service, out), components });
    const { window: _window, ...query } = pipeline.source;
    return fingerprintOf({
      name: pipeline.name,
      query,
      transforms: pipeline.transforms,
      sinks: pipeline.sinks.map((sink) => sinkIdentity(sink, components.destinations)),
    });
  }

  it("opens without a spurious 'changed' and takes the current fingerprint; one of another pipeline still reads as changed", async ({
    service,
    workspace,
  }) => {
    const out = await workspace.folder("earlier");
    const dir = await workspace.folder("earlier-pipeline");
    const pipeline = await writeJobsPipeline(dir, { name: "jobs-earlier", hours: 2 });
    expect((await runCli(["run", pipeline], { env: env(service, out) })).code).toBe(0);
    const statePath = join(out, "_mdq-export", "state.json");
    const current = (await readJson(statePath)).fingerprint;
    const earlier = await earlierFingerprint(pipeline, out, service);
    expect(earlier).not.toBe(current);
    const written = await readJson(statePath);
    await writeFile(statePath, JSON.stringify({ ...written, fingerprint: earlier }));

    const resumed = await runCli(["run", pipeline], { env: env(service, out) });
    expect(resumed.stderr).not.toContain("the pipeline changed");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("0 slices exported, 2 already done");
    expect((await readJson(statePath)).fingerprint).toBe(current);

    // The earlier fingerprint of the pipeline with files cut at another size: that is a change.
    const changed = await writeJobsPipeline(await workspace.folder("changed"), {
      name: "jobs-earlier",
      hours: 2,
      sink: { max_file_bytes: 1_000_000 },
    });
    await writeFile(
      statePath,
      JSON.stringify({ ...written, fingerprint: await earlierFingerprint(changed, out, service) }),
    );
    const refused = await runCli(["run", pipeline], { env: env(service, out) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("the pipeline changed since the output");
  });
});
