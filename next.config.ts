import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native/WASM and chain libraries are loaded by Node at run time, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "@x402/core", "@x402/evm", "@x402/extensions", "mppx"],
  poweredByHeader: false,
  // Each process may pick its own build dir so tests and dev can run side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
