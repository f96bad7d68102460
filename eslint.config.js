// Lint rules: the recommended sets, plus the project's own: no `any`, type-only imports marked as
// such, named exports only, at most 250 lines per module. The layering of src/ is checked by dependency-cruiser in `npm run lint`
// (.dependency-cruiser.cjs, drawn in docs/ARCHITECTURE.md).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The product's error classes: callers match on their codes (src/errors.ts), never on the class.
const ERROR_CLASSES = [
  "EtlError",
  "ConfigError",
  "RequestValidationError",
  "ApiError",
  "AuthError",
  "PermissionError",
  "QuotaExhaustedError",
  "RetriesSpentError",
  "PagingContextLostError",
  "BatchExportError",
  "SinkError",
  "ReconciliationError",
  "StoppedError",
  "OutputLockedError",
  "HttpStatusError",
  "SchemaDriftError",
  "JoinMismatchError",
];
const ERRORS_BY_CODE = {
  selector: `BinaryExpression[operator='instanceof'][right.name=/^(${ERROR_CLASSES.join("|")})$/]`,
  message:
    "Match the product's errors on their code (hasCode, isApiError, isSinkError… in src/errors.ts), never on the class.",
};
const NAMED_EXPORTS = {
  selector: "ExportDefaultDeclaration",
  message: "Use named exports only, so every import names what it takes.",
};

// Formats are components: outside formats/ and the component table, code asks a format what it can
// do (columnar, table, decodeRows...) instead of testing its name. The emulator's "ndjson" is the
// service's partition format, not an output format.
const FORMAT_NAMES = {
  selector: "Literal[value=/^(ndjson|parquet)$/]",
  message:
    "Do not test an output format by name outside src/formats/: ask the Format for a capability (columnar, table, decodeRows) instead.",
};

// Destinations are components too: outside its own folder (src/sinks/s3/, file/, stdout/), code asks
// a Destination what it can do (lock, stream, ddlLocation, checkTarget) instead of naming one: no "s3"
// or `s3://` in code, no S3 SDK type, no `to === "-"`. Prose in comments and messages may still mention S3; the S3_…
// error codes are the product's catalog of codes, not a test of the destination.
const DESTINATION_NAMES = {
  selector: [
    "Literal[value=/^s3$/i]",
    "Literal[value=/^s3:/i]",
    "TemplateElement[value.raw=/^s3:/i]",
    "Identifier[name=/S3([A-Z][a-z]|$)/]",
    // `to: -` is the stdout destination's own form.
    "BinaryExpression[right.value='-'] > MemberExpression.left[property.name='to']",
    "BinaryExpression[right.value='-'] > ChainExpression.left > MemberExpression[property.name='to']",
  ].join(", "),
  message:
    "Do not name a destination outside its folder (src/sinks/<destination>/): ask the Destination for a capability (lock, stream, ddlLocation, checkTarget) instead.",
};

/** The folders of the built-in destinations: the only places that name one. */
const DESTINATION_FOLDERS = ["src/sinks/s3/**", "src/sinks/file/**", "src/sinks/stdout/**"];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "dist-test/",
      ".build/",
      "out/",
      "coverage/",
      "node_modules/",
      "bench/results/",
      ".test-servers/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", NAMED_EXPORTS],
    },
  },
  {
    // One concept per module, split along a seam before it passes 250 lines (STYLE.md); every line
    // counts, comments and blank ones too, as `wc -l` counts them. Tests are exempt.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts", "src/**/*.test-support.ts"],
    rules: { "max-lines": ["error", { max: 250, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Tests may still assert the class a function throws.
    files: ["src/**/*.ts"],
    ignores: ["src/**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", NAMED_EXPORTS, ERRORS_BY_CODE, DESTINATION_NAMES] },
  },
  {
    files: ["src/**/*.ts"],
    ignores: [
      "src/**/*.test.ts",
      "src/formats/**",
      "src/components/**",
      "src/emulator/**",
      "src/cli/commands/emulator.ts",
    ],
    rules: {
      "no-restricted-syntax": ["error", NAMED_EXPORTS, ERRORS_BY_CODE, FORMAT_NAMES, DESTINATION_NAMES],
    },
  },
  {
    files: DESTINATION_FOLDERS,
    ignores: ["src/**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", NAMED_EXPORTS, ERRORS_BY_CODE, FORMAT_NAMES] },
  },
  {
    files: ["eslint.config.js", "vitest.config.ts"],
    rules: { "no-restricted-syntax": "off" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  {
    files: ["bench/**/*.js", "scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
