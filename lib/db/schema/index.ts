export * from "./feedback";
export * from "./mpp-store";
export * from "./namespaces";
export * from "./payments";
export * from "./payouts";
export * from "./sessions";
export * from "./siwx-nonces";
