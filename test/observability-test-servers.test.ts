// The test servers leave the host as they found it: the pretest unpacks Prometheus and the
// Pushgateway from Debian's packages into a folder of the project (no package installed, no service
// enabled or started, no port opened), and each test Pushgateway keeps its series in a file of its
// own, so one instance never loads another's.
import { spawnSync } from "node:child_process";
import { chmod, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, makeTempDir, removeDir } from "./support/cli-harness.js";
import { startPushgateway } from "./support/prometheus.js";

const SYSTEMD_UNITS = "/etc/systemd/system";

/** Every unit linked into a systemd target folder (`*.wants`), as `target/unit`. */
async function enabledUnits(): Promise<string[]> {
  const folders = await readdir(SYSTEMD_UNITS).catch(() => [] as string[]);
  const units: string[] = [];
  for (const folder of folders.filter((name) => name.endsWith(".wants")))
    for (const unit of await readdir(join(SYSTEMD_UNITS, folder)).catch(() => [] as string[]))
      units.push(`${folder}/${unit}`);
  return units.sort();
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Commands that install or start services, replaced on PATH by ones that log their arguments and exit. */
const WATCHED = ["systemctl", "service", "invoke-rc.d", "update-rc.d", "deb-systemd-invoke"];

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir("test-servers");
});
afterAll(async () => {
  await removeDir(dir);
});

describe("scripts/install-test-servers.sh", () => {
  it("unpacks the binaries into its folder; installs, enables and starts nothing", async () => {
    const shims = join(dir, "shims");
    const calls = join(dir, "calls.log");
    await writeFile(calls, "");
    await mkdir(shims);
    for (const name of WATCHED) {
      await writeFile(join(shims, name), `#!/bin/sh\necho "${name} $*" >> "${calls}"\nexit 0\n`);
      await chmod(join(shims, name), 0o755);
    }
    // apt-get and dpkg run for real; every call is logged to check none installs a package.
    for (const name of ["apt-get", "dpkg"]) {
      const real = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
      if (real === "") continue;
      await writeFile(join(shims, name), `#!/bin/sh\necho "${name} $*" >> "${calls}"\nexec "${real}" "$@"\n`);
      await chmod(join(shims, name), 0o755);
    }
    const unitsBefore = await enabledUnits();
    const portsBefore = [await listening(9090), await listening(9091)];
    const folder = join(dir, "servers");
    const result = spawnSync("bash", [join(REPO_ROOT, "scripts/install-test-servers.sh")], {
      encoding: "utf8",
      env: {
        ...process.env,
        PATH: `${shims}:${process.env.PATH ?? ""}`,
        MDQ_TEST_SERVERS_DIR: folder,
        MDQ_TEST_SERVERS_FETCH: "always",
      },
      timeout: 300_000,
    });
    const log = `${result.stdout}${result.stderr}`;
    const hasApt = spawnSync("sh", ["-c", "command -v apt-get && command -v dpkg"]).status === 0;
    if (!hasApt) {
      // Without Debian's tools the script says what to install and stops: nothing else to check.
      expect(result.status, log).toBe(1);
      expect(log).toContain("the observability tests need prometheus");
      return;
    }
    expect(result.status, log).toBe(0);
    for (const binary of ["prometheus", "promtool", "prometheus-pushgateway"]) {
      const version = spawnSync(join(folder, "usr/bin", binary), ["--version"], { encoding: "utf8" });
      expect(version.status, `${binary}: ${version.stderr}`).toBe(0);
      expect(`${version.stdout}${version.stderr}`).toContain("version");
    }
    const called = (await readFile(calls, "utf8")).split("\n").filter((line) => line !== "");
    expect(called.some((line) => line.startsWith("apt-get") && line.includes(" download "))).toBe(true);
    expect(
      called.filter((line) => / (install|reinstall)\b/.test(line) && line.startsWith("apt-get")),
    ).toEqual([]);
    expect(called.filter((line) => line.startsWith("dpkg") && !/^dpkg -x /.test(line))).toEqual([]);
    expect(called.filter((line) => WATCHED.some((name) => line.startsWith(`${name} `)))).toEqual([]);
    expect(await enabledUnits()).toEqual(unitsBefore);
    expect([await listening(9090), await listening(9091)]).toEqual(portsBefore);
  }, 320_000);
});

describe("a test Pushgateway", () => {
  it("keeps its series in a file of its own: the next one starts empty", async () => {
    const group = `persistence-check-${process.pid}-${Date.now()}`;
    const first = await startPushgateway();
    const pushed = await fetch(`${first.url}/metrics/job/${group}`, {
      method: "PUT",
      body: "mdq_persistence_check 1\n",
    });
    expect(pushed.status).toBe(200);
    expect(await (await fetch(`${first.url}/metrics`)).text()).toContain(group);
    // Stopping it writes its persistence file; a second instance would load it if they shared one.
    await first.close();
    const second = await startPushgateway();
    try {
      expect(await (await fetch(`${second.url}/metrics`)).text()).not.toContain(group);
    } finally {
      await second.close();
    }
  });
});
