import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { defineConfig, globalIgnores } from "eslint/config";

// The layers: lib/ is the domain, shared by the web app, the worker and the
// local stand-ins, so it never imports a framework or anything above it.
const frameworkImports = {
  patterns: [
    { group: ["next", "next/*", "react", "react/*", "react-dom", "react-dom/*"], message: "lib/ and worker/ hold no framework code: keep it in app/ or components/." },
    { group: ["@/app/*", "@/components/*", "**/app/*", "**/components/*"], message: "lib/ and worker/ may not import the UI layers above them." },
  ],
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".data/**", ".build/**", "node_modules/**", "test-results/**", "next-env.d.ts", "drizzle/meta/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/**/*.ts", "worker/**/*.ts", "local/**/*.ts"],
    rules: { "no-restricted-imports": ["error", frameworkImports] },
  },
  {
    files: ["tests/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
]);
