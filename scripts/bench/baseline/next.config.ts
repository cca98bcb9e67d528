import type { NextConfig } from "next";

// The baseline's own project (see startBaselineApp in ../baseline.ts): its paid route and a constant
// one (api/ping, the bare floor), no proxy, no instrumentation.
// It is type-checked with the rest of this repository; its temp copy reaches the one helper it shares
// with us (lib/chain/receipts.ts) through "@/", outside its own folder.
const config: NextConfig = {
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true },
  experimental: { externalDir: true },
};
export default config;
