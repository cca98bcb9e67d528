import { AcceptTransfer } from "@/components/members/accept-transfer";
import { SignInGate } from "@/components/wallet/sign-in-gate";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Accept · ${decodeURIComponent(namespace)} · Feedback` };
}

/** Where the wallet proposed as a namespace's new owner accepts it: it has no other access before then. */
export default async function AcceptPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  return (
    <main>
      <SignInGate title="Sign in with the wallet the namespace was offered to">
        <AcceptTransfer namespace={namespace} />
      </SignInGate>
    </main>
  );
}
