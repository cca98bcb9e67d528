import { SignInGate } from "@/components/wallet/sign-in-gate";
import { WebhookSettings } from "@/components/webhooks/webhook-settings";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Webhooks · ${decodeURIComponent(namespace)} · Feedback` };
}

export default async function WebhooksPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  return (
    <main>
      <SignInGate title="Sign in to manage this namespace's webhook">
        <WebhookSettings namespace={namespace} />
      </SignInGate>
    </main>
  );
}
