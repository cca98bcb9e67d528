import type { NextConfig } from "next";

// Sent with pages and static files; pages add a nonce-based Content-Security-Policy in proxy.ts.
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

const nextConfig: NextConfig = {
  // Native/WASM and chain libraries are loaded by Node at run time, not bundled. viem and ox too:
  // the payment libraries above load them from node_modules, and a bundled second copy would make
  // their errors fail our `instanceof` checks (a simulation's revert would read as "unreachable").
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "@x402/core",
    "@x402/evm",
    "@x402/extensions",
    "siwe",
    "mppx",
    "viem",
    "ox",
    "secp256k1",
  ],
  poweredByHeader: false,
  // Next 16.5's `next dev` writes an AGENTS.md into the project otherwise: `npm run dev` would leave every clone
  // with an untracked file (and it would enter the image's build context). Where to read is in README and docs/.
  agentRules: false,
  experimental: { agentUpgrade: false },
  // `npm test` checks the types (`tsc --noEmit`, the same tree) in the phase before it builds, and stops at an
  // error: its builds skip the second check, which costs as much as the rest of the build's compile.
  typescript: { ignoreBuildErrors: process.env.BUILD_TYPES_CHECKED === "1" },
  // Each process may pick its own build dir so tests and dev can run side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  async headers() {
    return [
      // Pages and static files; the JSON and text answers below get their own, stricter set.
      {
        source: "/:path((?!api/|openapi\\.json|llms\\.txt|\\.well-known/|healthz|readyz|metrics|ops/).*)",
        headers: SECURITY_HEADERS,
      },
      // JSON and text answers never run scripts, get framed or leak their URL (lib/http/security-headers.ts).
      ...[
        "/api/:path*",
        "/openapi.json",
        "/llms.txt",
        "/.well-known/:path*",
        "/healthz",
        "/readyz",
        "/metrics",
        "/ops/:path*",
      ].map((source) => ({
        source,
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      })),
    ];
  },
};

export default nextConfig;
