import { createContext, useContext } from "react";
import type { ClientConfig } from "@/lib/schemas/client-config";

export type { ClientConfig };

export const ClientConfigContext = createContext<ClientConfig | null>(null);

/** The deployment's client configuration; only inside <Providers>. */
export function useClientConfig(): ClientConfig {
  const config = useContext(ClientConfigContext);
  if (!config) throw new Error("useClientConfig must be used inside <Providers>");
  return config;
}
