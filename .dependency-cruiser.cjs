// The floor plan of src/, checked by `npm run lint` (docs/ARCHITECTURE.md draws the same diagram).
// A folder may import its own files, the folders below it and the bottom (core/ and the files at the
// top of src/: errors, error codes, logger); folders of one layer do not import each other; the
// emulator imports only the wire schemas and the bottom; tests may import anything. Any other import
// fails the lint, and so does any import circle, type-only imports included, and any import the
// cruiser cannot resolve (it could not be placed). test/layering-rules.test.ts runs these rules.

/** Top to bottom; the folders of one entry are peers. */
const LAYERS = [
  ["cli"],
  ["observability"],
  // pipeline/ is three rooms: the run, the output state it keeps (state, manifest, lock), the plan.
  ["pipeline/run"],
  ["pipeline/output-state"],
  ["pipeline/plan"],
  ["config"],
  ["warehouse"],
  ["components"],
  ["kinds"],
  ["transforms", "sinks"],
  // The quota ledger: the client's tracker asks its gate through core's QuotaGate contract.
  ["quota-ledger"],
  ["api", "formats"],
  // Response bytes to hits and records: the scanner, the JSON byte grammar, the hit readers.
  ["decoding"],
];

/** The bottom: shared vocabulary and helpers, importing nothing above it. */
const BOTTOM = "^src/(core/|[^/]+\\.ts$)";

/**
 * Known back-arrows: imports against the layering, each allowed by name and reason (`{ name, from,
 * to, why }`). There are none, and a new one is a design decision to argue, not a lint to quiet.
 */
const KNOWN_BACK_ARROWS = [];

/** Known circles: each module of one, with the imports that close it. Any other circle fails. */
const KNOWN_CIRCLES = [];

const TESTS = "\\.test\\.ts$|\\.test-support\\.ts$";

const folders = (list) => `^src/(${list.join("|")})/`;

const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => ({
    comment: `${folder}/ imports itself, ${
      LAYERS.slice(index + 1)
        .flat()
        .join(", ") || "nothing else"
    } and the bottom`,
    from: { path: `^src/${folder}/`, pathNot: TESTS },
    to: {
      path: [
        `^src/${folder}/`,
        BOTTOM,
        ...(index + 1 < LAYERS.length ? [folders(LAYERS.slice(index + 1).flat())] : []),
      ],
    },
  })),
);

// Only cli/ and pipeline/ (the embedded service) start the emulator; it shares the wire schemas
// with the client and nothing else, so the two cannot drift apart.
const emulatorRules = [
  {
    comment: "cli/ and pipeline/ start the embedded emulator",
    from: { path: "^src/(cli|pipeline)/" },
    to: { path: "^src/emulator/" },
  },
  {
    comment: "the emulator imports only the wire schemas and the bottom",
    from: { path: "^src/emulator/", pathNot: TESTS },
    to: { path: ["^src/emulator/", "^src/api/wire/", BOTTOM] },
  },
];

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  allowed: [
    { comment: "packages and Node built-ins", from: {}, to: { pathNot: "^src/" } },
    {
      comment: "the bottom imports only the bottom",
      from: { path: BOTTOM, pathNot: TESTS },
      to: { path: BOTTOM },
    },
    ...layerRules,
    ...emulatorRules,
    { comment: "tests sit above everything: they wire real components", from: { path: TESTS }, to: {} },
    ...KNOWN_BACK_ARROWS.map(({ name, from, to, why }) => ({
      comment: `known back-arrow ${name}: ${why}`,
      from: { path: from },
      to: { path: to },
    })),
  ],
  allowedSeverity: "error",
  forbidden: [
    {
      name: "pagers-above-the-client",
      comment:
        "Inside api/, the pagers (api/paging/) sit above the client: they import it, never the reverse.",
      severity: "error",
      from: { path: "^src/api/", pathNot: ["^src/api/paging/", TESTS] },
      to: { path: "^src/api/paging/" },
    },
    {
      name: "decoding-imports-only-the-bottom",
      comment:
        "Response bytes become records below everything else: decoding/ imports core/ and the bottom only; a format hands its coercers in through Format.takes.",
      severity: "error",
      from: { path: "^src/decoding/", pathNot: TESTS },
      to: { path: "^src/", pathNot: ["^src/decoding/", BOTTOM] },
    },
    {
      name: "formats-through-their-contract",
      comment:
        "The run, the client and the pagers, the kinds, the config and the CLI see a format through its contract (formats/format.ts) only; the environment's registry names the formats themselves.",
      severity: "error",
      from: { path: "^src/(cli|observability|pipeline|config|kinds|api)/", pathNot: TESTS },
      to: { path: "^src/formats/", pathNot: "^src/formats/format\\.ts$" },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import the cruiser cannot resolve would pass the layering unseen.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-circular",
      comment: "A circle of imports, type-only ones included, makes the layers meaningless.",
      severity: "error",
      from: { pathNot: KNOWN_CIRCLES.flatMap((circle) => circle.edges.map(([from]) => from)) },
      to: { circular: true },
    },
    ...KNOWN_CIRCLES.flatMap(({ name, edges }) =>
      edges.map(([from, to]) => ({
        name: "no-circular",
        comment: `known circle ${name}: only its own imports may close it`,
        severity: "error",
        from: { path: from },
        to: { circular: true, pathNot: to },
      })),
    ),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^dist/" },
  },
};
