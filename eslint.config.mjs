import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import boundaries from "eslint-plugin-boundaries";
import { defineConfig, globalIgnores } from "eslint/config";

// The rooms (docs/architecture.md) and which may import which. lib/ is the
// domain and imports no other room; platform/ is process plumbing on top of
// it; the web process (web/, app/, components/, client/), the worker and the
// local stand-ins each stand on those two and never on each other (the web
// may read the client's response types). scripts/, bench/ and tests/ drive
// everything. No import cycle anywhere: import/no-cycle here, and `npm run
// lint:cycles` (madge) for cycles made of type imports, which it skips.
const ROOMS = [
  ["lib", "lib/**"],
  ["platform", "platform/**"],
  ["client", "client/**"],
  ["components", "components/**"],
  ["app", "app/**"],
  ["web", "web/**"],
  ["worker", "worker/**"],
  ["local", "local/**"],
  ["scripts", "scripts/**"],
  ["bench", "bench/**"],
  ["tests", "tests/**"],
];

const MAY_IMPORT = {
  lib: [],
  platform: ["lib"],
  client: ["lib"],
  components: ["client", "lib"],
  web: ["client", "lib", "platform"],
  app: ["web", "components", "client", "lib", "platform"],
  worker: ["lib", "platform"],
  local: ["lib", "platform"],
  scripts: ["web", "worker", "local", "lib", "platform"],
  bench: ["web", "worker", "local", "client", "lib", "platform", "scripts", "tests"],
  tests: ["app", "web", "worker", "local", "client", "components", "lib", "platform", "scripts", "bench"],
};

const frameworkImports = {
  patterns: [{ group: ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*"], message: "this room holds no framework code: keep it in app/ or components/." }],
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".data/**", ".build/**", ".cache/**", "node_modules/**", "test-results/**", "next-env.d.ts", "drizzle/meta/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { boundaries },
    settings: {
      "boundaries/elements": ROOMS.map(([type, pattern]) => ({ type, pattern, partialMatch: false })),
      "import/resolver": { typescript: { alwaysTryTypes: true }, node: true },
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: Object.entries(MAY_IMPORT).map(([from, allowed]) => ({
            from: { element: { type: from } },
            disallow: { to: { element: { types: { noneOf: [from, ...allowed] } } } },
          })),
        },
      ],
    },
  },
  {
    files: ["lib/**/*.ts", "platform/**/*.ts", "client/**/*.ts", "worker/**/*.ts", "local/**/*.ts"],
    rules: { "no-restricted-imports": ["error", frameworkImports] },
  },
  {
    files: ["tests/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
]);
