// The supported Node versions, stated once in package.json and kept true: every installed package
// accepts them (so a clean `npm ci` prints no EBADENGINE), the README says the same, and every
// install script is reviewed in allowScripts (so npm prints no install-scripts warning either).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

interface Semver {
  subset(sub: string, dom: string): boolean;
  satisfies(version: string, range: string): boolean;
  validRange(range: string): string | null;
}
// semver comes with the toolchain (npm's own version ranges); it is not a dependency of the product.
const semver = createRequire(import.meta.url)("semver") as Semver;

interface LockPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

interface Manifest {
  engines: { node: string };
  devEngines: { runtime: { name: string; version: string } };
  allowScripts?: Record<string, boolean>;
}

const root = new URL("../", import.meta.url);
const manifest = JSON.parse(await readFile(new URL("package.json", root), "utf8")) as Manifest;
const lock = JSON.parse(await readFile(new URL("package-lock.json", root), "utf8")) as {
  packages: Record<string, LockPackage>;
};
const installed = Object.entries(lock.packages).filter(([path]) => path !== "");

function nodeRange(info: LockPackage): string | undefined {
  return Array.isArray(info.engines) ? undefined : info.engines?.node;
}

/** The packages whose Node range does not take every version of `range`. */
function refusing(range: string, packages: [string, LockPackage][]): string[] {
  return packages
    .filter(([, info]) => {
      const wanted = nodeRange(info);
      return wanted !== undefined && semver.validRange(wanted) !== null && !semver.subset(range, wanted);
    })
    .map(
      ([path, info]) =>
        `${path.replace(/^.*node_modules\//, "")}@${info.version ?? "?"}: ${nodeRange(info) ?? ""}`,
    );
}

describe("the supported Node versions", () => {
  const runtime = manifest.engines.node;
  const development = manifest.devEngines.runtime.version;

  it("are ranges npm can read, development's inside the runtime's", () => {
    expect(manifest.devEngines.runtime.name).toBe("node");
    expect(semver.validRange(runtime)).not.toBeNull();
    expect(semver.validRange(development)).not.toBeNull();
    expect(semver.subset(development, runtime)).toBe(true);
  });

  it("are accepted by every package the product runs with (engines)", () => {
    expect(
      refusing(
        runtime,
        installed.filter(([, info]) => info.dev !== true),
      ),
    ).toEqual([]);
  });

  it("are accepted by every package a clean npm ci installs, the test tools included (devEngines)", () => {
    expect(refusing(development, installed)).toEqual([]);
  });

  it("include the Node running these tests", () => {
    expect(semver.satisfies(process.versions.node, development)).toBe(true);
  });

  it("are the versions the README states", async () => {
    const readme = await readFile(new URL("README.md", root), "utf8");
    expect(readme).toContain(`Node.js \`${runtime}\``);
    expect(readme).toContain(`\`${development}\``);
  });
});

describe("install scripts", () => {
  it("every package with an install script is reviewed in allowScripts, so npm ci warns of none", () => {
    const allowed = manifest.allowScripts ?? {};
    const unreviewed = installed
      .filter(([, info]) => info.hasInstallScript === true)
      .map(([path, info]) => ({ name: path.replace(/^.*node_modules\//, ""), version: info.version ?? "" }))
      .filter(
        ({ name, version }) => allowed[name] === undefined && allowed[`${name}@${version}`] === undefined,
      );
    expect(unreviewed).toEqual([]);
  });
});
