// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Every API path answers the same with and without a trailing slash and never redirects (old
  // HTTP clients turn a redirected POST into a GET): docs/api.md#trailing-slashes-and-letter-case.
  skipTrailingSlashRedirect: true,
  // PGlite ships WebAssembly and postgres.js/argon2 are server-only: load them from node_modules
  // instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "@node-rs/argon2"],
  poweredByHeader: false,
  // Each route's code loads on its first request, not all of it before the process listens: a start
  // measured 1.23-1.36 CPU-seconds with the preload and 0.86-1.05 without, 18 MB less resident; a
  // route's first request pays its loading once per process (an API route about 10 ms, the first
  // page about 80 ms): docs/operations.md#start-up.
  experimental: { preloadEntriesOnStart: false },
  // `npm run typecheck` (part of `npm test`) checks the whole project, tests included; checking
  // again inside every build only slows `npm start` down.
  typescript: { ignoreBuildErrors: true },
  // No page of this site may be framed (clickjacking of the consent and revoke buttons); the
  // OAuth pages also keep their URLs (request parameters) out of Referer headers sent to other
  // sites. ("same-origin", not "no-referrer": under no-referrer browsers send "Origin: null" with
  // the consent form's POST, and the form's own origin check could no longer tell it apart.)
  async headers() {
    const noFraming = [
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "X-Frame-Options", value: "DENY" },
      { key: "X-Content-Type-Options", value: "nosniff" },
    ];
    return [
      { source: "/:path*", headers: noFraming },
      { source: "/oauth/:path*", headers: [{ key: "Referrer-Policy", value: "same-origin" }] },
      { source: "/sandbox/oauth/:path*", headers: [{ key: "Referrer-Policy", value: "same-origin" }] },
    ];
  },
};

export default nextConfig;
