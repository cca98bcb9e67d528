// vitest runs server modules outside Next, where "server-only" would throw.
export {};
