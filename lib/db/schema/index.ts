export * from "./feedback";
export * from "./namespaces";
export * from "./payments";
export * from "./siwx-nonces";
