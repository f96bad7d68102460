// Summarizes a V8 .cpuprofile (written by `node --cpu-prof`): self time by function and by where the
// code lives (our folders under dist/, each package, node internals, GC, idle).
// node bench/profile-summary.js FILE.cpuprofile [top]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

function placeOf(url, functionName) {
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(idle)") return "idle";
  if (functionName === "(program)") return "V8/native (program)";
  if (url === "") return "native";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg !== null) return pkg[1];
  const ours = /\/dist\/([^/]+)\//.exec(url);
  if (ours !== null) return `src/${ours[1]}`;
  if (url.startsWith("node:")) return "node internals";
  return url.replace(/^.*\//, "");
}

/** Self time per function and per place, as text tables with milliseconds and shares. */
export function summarizeProfile(file, top = 20) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const interval = new Map();
  // Each sample's time is the delta to the next one; attribute it to the sampled node.
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index + 1] ?? 0;
    interval.set(id, (interval.get(id) ?? 0) + delta);
  });
  const byFunction = new Map();
  const byPlace = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const micros = interval.get(node.id) ?? 0;
    if (micros === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const place = placeOf(url, functionName);
    const name = `${functionName || "(anonymous)"} ${url === "" ? "" : `${url.replace(/^.*\/(dist|node_modules)\//, "$1/")}:${lineNumber + 1}`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
    total += micros;
  }
  const rows = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, micros]) =>
          `${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`,
      )
      .join("\n");
  return `total ${(total / 1000).toFixed(0)} ms sampled\nby place:\n${rows(byPlace, 15)}\nby function (self):\n${rows(byFunction, top)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(summarizeProfile(process.argv[2], Number(process.argv[3] ?? 25)));
}
