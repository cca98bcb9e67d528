import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { KnownIssuesSettings } from "@/components/known-issues/known-issues-settings";
import { NamespaceGate } from "@/components/namespaces/namespace-gate";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchNamespaceAccess } from "@/lib/api-client/server-prefetch";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Known issues · ${decodeURIComponent(namespace)} · Feedback` };
}

export default async function KnownIssuesPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  const state = await prefetchNamespaceAccess((await headers()).get("cookie"), namespace);
  return (
    <main>
      <SignInGate title="Sign in to manage this namespace's known issues">
        <HydrationBoundary state={state}>
          <NamespaceGate namespace={namespace}>
            <KnownIssuesSettings namespace={namespace} />
          </NamespaceGate>
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}
