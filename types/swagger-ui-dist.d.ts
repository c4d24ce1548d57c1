// swagger-ui-dist ships no types; web/http/docs.ts uses this one function of it.
declare module "swagger-ui-dist/absolute-path.js" {
  /** The package's directory on disk. */
  export default function getAbsoluteFSPath(): string;
}
