import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useConfig } from "wagmi";
import { connect, disconnect, getConnection, getConnectors, signMessage } from "wagmi/actions";
import { deleteSession, fetchSignInChallenge, postSignIn } from "../fetchers/session";
import { queryKeys } from "../queries";
import { buildSignInMessage } from "../wallet/siwe-message";
import { stopReadsInFlight } from "./after-write";

/**
 * Connects the chosen wallet when asked (or uses the connected one), has it sign a SIWE message and
 * trades that for a session cookie: one signature, then the dashboard reads without asking again.
 */
export function useSignIn() {
  const config = useConfig();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (options: { connectorId?: string } = {}) => {
      let connection = getConnection(config);
      if (options.connectorId && connection.connector?.id !== options.connectorId) {
        const connector = getConnectors(config).find((c) => c.id === options.connectorId);
        if (!connector) throw new Error("That wallet is not available in this browser.");
        if (connection.status === "connected") await disconnect(config);
        await connect(config, { connector });
        connection = getConnection(config);
      }
      const address = connection.address;
      if (!address) throw new Error("Connect a wallet first.");
      const challenge = await fetchSignInChallenge();
      const message = await buildSignInMessage(challenge, address);
      const signature = await signMessage(config, { account: address, message });
      return postSignIn({ message, signature });
    },
    onSuccess: async (session) => {
      // A session read in flight predates the sign-in and must not land over it.
      await stopReadsInFlight(queryClient, [queryKeys.session]);
      queryClient.removeQueries({ queryKey: ["owner"] });
      queryClient.setQueryData(queryKeys.session, session);
    },
  });
}

/** Ends the session on the server, forgets every signed-in answer and disconnects the wallet. */
export function useSignOut() {
  const config = useConfig();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await deleteSession();
      if (getConnection(config).status === "connected") await disconnect(config);
    },
    onSettled: async () => {
      await stopReadsInFlight(queryClient, [queryKeys.session]);
      queryClient.removeQueries({ queryKey: ["owner"] });
      queryClient.setQueryData(queryKeys.session, null);
    },
  });
}
