import Link from "next/link";

export default function Home() {
  return (
    <main>
      <h1>Offer Book Explorer</h1>
      <p>
        The read API lives under <Link href="/v1" prefetch={false}>/v1</Link>.
      </p>
    </main>
  );
}
