"use client";

import { QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { WagmiProvider } from "wagmi";
import { type ClientConfig, ClientConfigContext } from "@/lib/api-client/config";
import { ApiError, isSignedOutError } from "@/lib/api-client/http";
import { queryKeys } from "@/lib/api-client/queries";
import type { SessionView } from "@/lib/api-client/types";
import { createWagmiConfig } from "@/lib/api-client/wallet/wagmi-config";

function createQueryClient(session: SessionView | null): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A refusal (4xx) will not change by asking again; a network hiccup or a 5xx might.
        retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      },
    },
    // Any answer saying the session is gone signs the whole page out, so it offers a new sign-in.
    queryCache: new QueryCache({
      onError: (error) => {
        if (isSignedOutError(error)) client.setQueryData(queryKeys.session, null);
      },
    }),
  });
  // The server rendered the page knowing the session: no request needed to learn it again.
  client.setQueryData(queryKeys.session, session);
  return client;
}

/** Wallet (wagmi), data (React Query) and the deployment's client configuration for every page. */
export function Providers({
  config,
  session,
  children,
}: {
  config: ClientConfig;
  session: SessionView | null;
  children: ReactNode;
}) {
  const [wagmiConfig] = useState(() => createWagmiConfig(config));
  const [queryClient] = useState(() => createQueryClient(session));
  return (
    <ClientConfigContext value={config}>
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </WagmiProvider>
    </ClientConfigContext>
  );
}
