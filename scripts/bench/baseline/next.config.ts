import type { NextConfig } from "next";

// The baseline's own project (see startBaseline in ../run.ts): one route, no proxy, no instrumentation.
// It is type-checked with the rest of this repository; its temp copy gets Next's default tsconfig.
const config: NextConfig = { poweredByHeader: false, typescript: { ignoreBuildErrors: true } };
export default config;
