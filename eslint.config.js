// Lint rules: the recommended sets, plus the project's own: no `any`, type-only imports marked as
// such, named exports only. The layering of src/ is checked by dependency-cruiser in `npm run lint`
// (.dependency-cruiser.cjs, drawn in docs/ARCHITECTURE.md).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "coverage/", "node_modules/", "bench/results/", ".test-servers/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ExportDefaultDeclaration",
          message: "Use named exports only, so every import names what it takes.",
        },
      ],
    },
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
    files: ["bench/**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
