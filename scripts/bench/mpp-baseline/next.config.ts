import type { NextConfig } from "next";

// The MPP baseline's own project (see ../baseline.ts): one route, no proxy, no instrumentation.
// It is type-checked with the rest of this repository; its temp copy reaches the helpers it shares with
// us (lib/chain/rpc.ts, lib/money.ts) through "@/", outside its own folder. mppx, viem and ox
// load from node_modules at run time, as in our next.config.ts, so both run the same copies.
const config: NextConfig = {
  poweredByHeader: false,
  serverExternalPackages: ["mppx", "viem", "ox"],
  typescript: { ignoreBuildErrors: true },
  experimental: { externalDir: true },
};
export default config;
