import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { Suspense } from "react";
import { InsightsView } from "@/components/insights/insights-view";
import { NamespaceGate } from "@/components/namespaces/namespace-gate";
import { Loading } from "@/components/ui/states";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchNamespaceAccess } from "@/lib/api-client/server-prefetch";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Insights · ${decodeURIComponent(namespace)} · Feedback` };
}

export default async function InsightsPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  const state = await prefetchNamespaceAccess((await headers()).get("cookie"), namespace);
  return (
    <main>
      <SignInGate title="Sign in to see this namespace's insights">
        <HydrationBoundary state={state}>
          <NamespaceGate namespace={namespace}>
            {/* The period lives in the URL's query, which the page reads in the browser. */}
            <Suspense fallback={<Loading />}>
              <InsightsView namespace={namespace} />
            </Suspense>
          </NamespaceGate>
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}
